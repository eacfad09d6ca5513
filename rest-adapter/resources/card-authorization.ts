import type { RestResource } from "../route-kit/resource-overlay.ts";
import { DECIMAL_PATTERN } from "../route-kit/schemas.ts";

const MCC = "^[0-9]{4}$";

/**
 * A card authorization in REST (the sandbox's card network), written inline by its routes: its
 * card_purchase and refunds are Transaction components. The sandbox's bodies from SandboxCardAuthorizationInput and SandboxCardRefundInput.
 */
export const resource = {
  type: "CardAuthorization",
  component: false,
  inputs: { SandboxCardAuthorizationInput: "CardAuthorization", SandboxCardRefundInput: "CardAuthorization" },
  types: {
    CardAuthorization: {
      fields: {
        decline_reason: { orNull: { description: "set when declined: the first rule that failed, in this order" } },
        status: { description: "declined; or pending, then captured (then refunded once fully refunded) or reversed" },
        amount: { pattern: DECIMAL_PATTERN, maxLength: 80, description: "what the merchant asked, in `currency`", examples: ["42.50"] },
        currency: { examples: ["USD"] },
        transaction: { ref: true },
        refunded_amount: { examples: ["0"] },
        refunds: { ref: true },
      },
    },
    CardAuthorizationMerchant: { fields: { mcc: { pattern: MCC } } },
    SandboxCardAuthorizationInput: {
      fields: { amount: { pattern: DECIMAL_PATTERN, maxLength: 80, examples: ["42.50"] }, currency: { pattern: "^[A-Za-z]{3}$", examples: ["USD"] } },
    },
    SandboxCardRefundInput: { fields: { amount: { pattern: DECIMAL_PATTERN, maxLength: 80, description: "in the authorization's currency; absent or null: all that is left", examples: ["42.50"] } } },
    SandboxCardMerchantInput: {
      fields: {
        name: { minLength: 1, maxLength: 100, examples: ["Corner Grocery"] },
        mcc: { pattern: MCC, description: "merchant category code (ISO 18245)", examples: ["5411"] },
      },
    },
  },
} satisfies RestResource;
