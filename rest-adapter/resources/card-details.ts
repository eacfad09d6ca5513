import type { RestResource } from "../route-kit/resource-overlay.ts";

/** A card's number, CVV and expiry as POST /v0/cards/{card_id}/secure-details answers them, written inline. */
export const resource = {
  type: "CardDetails",
  component: false,
  types: {
    CardDetails: {
      fields: {
        number: { pattern: "^[0-9]{12,19}$", description: "the full card number (PAN)" },
        cvv: { pattern: "^[0-9]{3,4}$" },
        expiry_month: { minimum: 1, maximum: 12 },
        expiry_year: { description: "four digits", examples: [2029] },
      },
    },
  },
} satisfies RestResource;
