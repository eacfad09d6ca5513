import type { RestResource } from "../route-kit/resource-overlay.ts";

/** A card's number, CVV and expiry as POST /v0/cards/{card_id}/secure-details answers them, written inline; its body from RevealCardDetailsInput. */
export const resource = {
  type: "CardDetails",
  component: false,
  inputs: { RevealCardDetailsInput: "CardDetails" },
  types: {
    CardDetails: {
      fields: {
        number: { pattern: "^[0-9]{12,19}$", description: "the full card number (PAN)" },
        cvv: { pattern: "^[0-9]{3,4}$" },
        expiry_month: { minimum: 1, maximum: 12 },
        expiry_year: { description: "four digits", examples: [2029] },
      },
    },
    RevealCardDetailsInput: {
      additionalProperties: false,
      fields: {
        challenge_id: { minLength: 1, maxLength: 64, description: "the id of a challenge from POST …/secure-details/challenge" },
        signature: { pattern: "^0x[0-9a-fA-F]{130}$", description: "the primary EOA's EIP-191 signature of the challenge's message (65 bytes, hex)" },
      },
    },
  },
} satisfies RestResource;
