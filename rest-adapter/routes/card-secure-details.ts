import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route-kit/route.ts";
import { href, link, pageLinks } from "../route-kit/links.ts";
import { PageOffset, withLinks } from "../route-kit/schemas.ts";
import { CARD_DETAILS_CHALLENGE_FIELDS, CARD_DETAILS_FIELDS, CARD_REVEAL_PAGE_FIELDS, CardDetails, CardDetailsChallenge, CardRevealPage, RevealCardDetailsInput } from "../resources/resources.generated.ts";
import { CARD_DETAILS_CHALLENGE_TTL_MS, CARD_REVEAL_WINDOW_MS, CARD_REVEALS_PER_WINDOW } from "../../lib/contracts/cards.ts";
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "../../lib/contracts/transactions.ts";

const CardId = Type.Object({ card_id: Type.String({ minLength: 1, maxLength: 64, description: "crd_<id>" }) });

const FLOW = [
  "A card's number, CVV and expiry are never part of a card (`GET /v0/cards/{card_id}`, GraphQL `card`); spec 2.10 keeps them behind these endpoints, which need a fresh proof beyond the session:",
  `1. \`POST /v0/cards/{card_id}/secure-details/challenge\` answers a single-use challenge: \`message\`, an EIP-191 text naming this platform's host, the card's last four digits, the challenge id and its expiry (${CARD_DETAILS_CHALLENGE_TTL_MS / 60_000} minutes), addressed to your primary EOA (\`address\`).`,
  "2. Sign `message` exactly as given with that EOA (`personal_sign`; viem: `account.signMessage({ message })`).",
  "3. `POST /v0/cards/{card_id}/secure-details` `{challenge_id, signature}` answers `number`, `cvv`, `expiry_month` and `expiry_year`, with `Cache-Control: no-store`. The challenge is spent: a second answer to it, one of another card or user, an expired one or a signature by any other key is 403 `CRD-403-002`; ask for a new challenge.",
  `At most ${CARD_REVEALS_PER_WINDOW} reveals per card in any rolling ${CARD_REVEAL_WINDOW_MS / 3_600_000} hour; more is 429 \`CRD-429-001\` with \`Retry-After\` (the challenge is not spent then). Every reveal is recorded with the client's address and User-Agent: \`GET /v0/cards/{card_id}/secure-details/reveals\`.`,
  "Only a JWT (`x-platform-jwt`) of the card's holder: a personal access token is 403 `USR-403-001`, as is any other credential; another user's card is 404 `CRD-404-001`; a closed card is 409 `CRD-409-001`. The number and CVV are stored sealed (AES-256-GCM) and never logged.",
].join("\n");

const PAGE_QUERY = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT })),
  offset: PageOffset,
});

const secureDetails = (base: string, cardId: string) => href(base, "/v0/cards/{card_id}/secure-details", { card_id: cardId });

export const cardSecureDetailsRoutes = [
  defineRoute({
    operationId: "createCardDetailsChallenge",
    method: "POST",
    path: "/v0/cards/{card_id}/secure-details/challenge",
    tag: "Cards",
    summary: "Ask for a challenge to reveal a card's number, CVV and expiry",
    description: FLOW,
    security: ["PlatformJwt"],
    params: CardId,
    operation: `mutation CreateCardDetailsChallenge($card_id: ID!) { challenge: create_card_details_challenge(card_id: $card_id) { ${CARD_DETAILS_CHALLENGE_FIELDS} } }`,
    variables: ({ params }) => ({ card_id: params.card_id }),
    result: (data) => data.challenge,
    status: 201,
    links: (body, { base_url }) => ({
      reveal: link(secureDetails(base_url, body.card_id), { method: "POST" }),
      card: link(href(base_url, "/v0/cards/{card_id}", { card_id: body.card_id })),
    }),
    responses: { 201: { description: "The challenge to sign", schema: withLinks(CardDetailsChallenge) } },
    errors: ["USR-403-001", "USR-404-001", "CRD-404-001", "CRD-409-001"],
  }),
  defineRoute({
    operationId: "revealCardDetails",
    method: "POST",
    path: "/v0/cards/{card_id}/secure-details",
    tag: "Cards",
    summary: "Reveal a card's number, CVV and expiry with a signed challenge",
    description: FLOW,
    security: ["PlatformJwt"],
    params: CardId,
    body: RevealCardDetailsInput,
    operation: `mutation RevealCardDetails($card_id: ID!, $input: RevealCardDetailsInput!) { details: reveal_card_details(card_id: $card_id, input: $input) { ${CARD_DETAILS_FIELDS} } }`,
    variables: ({ params, body }) => ({ card_id: params.card_id, input: body }),
    result: (data) => data.details,
    headers: { "cache-control": "no-store" },
    responses: { 200: { description: "The card's details, once per challenge; never cache or log them", schema: CardDetails } },
    errors: ["USR-403-001", "USR-404-001", "CRD-403-002", "CRD-404-001", "CRD-409-001", "CRD-429-001"],
  }),
  defineRoute({
    operationId: "listCardDetailReveals",
    method: "GET",
    path: "/v0/cards/{card_id}/secure-details/reveals",
    tag: "Cards",
    summary: "The audit trail of a card's detail reveals",
    description: `Every reveal of the card's details, newest first: when, the challenge it spent, how it was proven, the client's address and User-Agent; never the details. \`limit\` 1 to ${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT}), \`offset\` from 0. Closed cards keep theirs.\n\n${FLOW}`,
    security: ["PlatformJwt"],
    params: CardId,
    query: PAGE_QUERY,
    operation: `query ListCardDetailReveals($card_id: ID!, $page: PageInput) { reveals: card_detail_reveals(card_id: $card_id, page: $page) { ${CARD_REVEAL_PAGE_FIELDS} } }`,
    variables: ({ params, query }) => ({ card_id: params.card_id, page: query }),
    result: (data) => data.reveals,
    links: (body, { base_url, params }) => {
      return {
        ...pageLinks(`${secureDetails(base_url, params.card_id)}/reveals`, {}, body.pagination),
        card: link(href(base_url, "/v0/cards/{card_id}", { card_id: params.card_id })),
      };
    },
    responses: { 200: { description: "One page of the card's reveals", schema: withLinks(CardRevealPage) } },
    errors: ["USR-403-001", "USR-404-001", "CRD-404-001"],
  }),
];
