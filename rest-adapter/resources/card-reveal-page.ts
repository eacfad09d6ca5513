import type { RestResource } from "../route-kit/resource-overlay.ts";

/** A page of a card's detail reveals (GET /v0/cards/{card_id}/secure-details/reveals), written inline with _links. */
export const resource = {
  type: "CardRevealPage",
  component: false,
  types: {
    CardReveal: {
      fields: {
        id: { description: "crv_<id>" },
        challenge_id: { description: "the challenge the reveal spent" },
        method: { description: "eip191: the primary EOA's signature of a challenge" },
      },
    },
    Pagination: { fields: { total: { description: "reveals of the card, over all pages" } } },
  },
} satisfies RestResource;
