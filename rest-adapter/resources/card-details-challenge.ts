import type { RestResource } from "../route-kit/resource-overlay.ts";
import { Address } from "../route-kit/schemas.ts";

/** The challenge POST /v0/cards/{card_id}/secure-details/challenge answers, written inline with _links. */
export const resource = {
  type: "CardDetailsChallenge",
  component: false,
  types: {
    CardDetailsChallenge: {
      fields: {
        id: { description: "cdc_<id>: send it back as challenge_id" },
        address: { pattern: Address.pattern, examples: Address.examples },
        message: { description: "the exact text to sign (EIP-191 personal_sign)" },
      },
    },
  },
} satisfies RestResource;
