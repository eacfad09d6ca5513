import { Type, type Static } from "@sinclair/typebox";
import type { RestResource } from "../route-kit/resource-overlay.ts";
import { CardFundingSource, DECIMAL_PATTERN, Links } from "../route-kit/schemas.ts";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import type { CardFundingSourceType } from "../../lib/vocabulary/cards.ts";
import type * as Generated from "./resources.generated.ts";

// merchant category codes and the last four digits of a card number
const FOUR_DIGITS = "^[0-9]{4}$";
const LIMIT = { pattern: DECIMAL_PATTERN, orNull: { description: "decimal string in the card's currency, null: no limit" } };
const LIMIT_INPUT = { pattern: DECIMAL_PATTERN, maxLength: 80, description: "positive decimal string in the card's currency, at most cents", examples: ["200.00"] };
const mccsInput = (description: string) => ({ maxItems: 200, item: { pattern: FOUR_DIGITS, examples: ["7995"] }, orNull: { description } });
const NICKNAME_INPUT = { maxLength: 64 };

/** A funding source's id in a request: GraphQL's String, or a wallet's integer id (spec 2.3). */
export const FundingSourceId = Type.Union(
  [
    Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: "crypto_wallet: a wallet id of yours (spec 2.3, GET /v0/wallets)", examples: [12] }),
    Type.String({ minLength: 1, maxLength: 64, description: "bank_account: a bank account id of yours (GET /v0/bank-accounts); crypto_wallet also accepts the wallet id in decimal (\"12\"), as it once required", examples: ["bnk_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
  ],
  { description: "the wallet id (an integer) for crypto_wallet, the bank account id (a string) for bank_account" },
);

/** GraphQL takes any JSON object as a shipping address; REST checks its lines. */
export const ShippingAddress = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    line1: Type.String({ minLength: 1, maxLength: 200 }),
    line2: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    city: Type.String({ minLength: 1, maxLength: 100 }),
    state: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    postal_code: Type.String({ minLength: 1, maxLength: 20 }),
    country: Type.String({ pattern: "^[A-Z]{2}$", description: "ISO 3166-1 alpha-2", examples: ["DE"] }),
  },
  { additionalProperties: false, description: "physical cards only, and required for them" },
);

/**
 * A card in REST (spec 2.10, 3.3): the GraphQL Card, never its number, CVV or expiry, which only
 * the secure-details reveal answers; its bodies from CreateCardInput, UpdateCardInput and
 * CardFundingSourceInput (PUT /v0/cards/{card_id}/funding).
 */
export const resource = {
  type: "Card",
  inputs: { CreateCardInput: "Card", UpdateCardInput: "Card", CardFundingSourceInput: "CardFundingSource" },
  types: {
    Card: {
      fields: {
        id: { examples: ["crd_01jd2x3y4z5a6b7c8d9e0f1g2h"] },
        status: { description: "pending → active ⇄ suspended → closed (spec 3.3)" },
        currency: { description: "USD or EUR; a crypto wallet settles purchases in USDC or EURC, one to one", examples: ["USD"] },
        last_four: { pattern: FOUR_DIGITS, examples: ["4242"] },
        funding_source: { schema: CardFundingSource },
      },
    },
    // its Wallet is the users subgraph's: GET /v0/wallets/{wallet_id} (the funding_wallet link)
    CardFundingSource: { omit: ["wallet"] },
    CardControls: {
      fields: {
        daily_limit: LIMIT,
        monthly_limit: LIMIT,
        single_transaction_limit: LIMIT,
        allowed_mcc: { item: { pattern: FOUR_DIGITS } },
        blocked_mcc: { item: { pattern: FOUR_DIGITS } },
      },
    },
    CardUsage: {
      description: "how much of each limit the current day and month use, in the holder's time zone (GET /v0/budgets/settings)",
      fields: { time_zone: { examples: ["Europe/Berlin"] }, single_transaction_limit: LIMIT },
    },
    CardLimitUsage: {
      description: "approved and settled purchases in the period (card_purchase transactions not failed); refunds do not give limits back",
      fields: { limit: LIMIT },
    },
    CreateCardInput: {
      fields: { currency: { enum: ["USD", "EUR"], description: "default USD" }, nickname: NICKNAME_INPUT, shipping_address: { schema: ShippingAddress } },
    },
    UpdateCardInput: { minProperties: 1, fields: { nickname: NICKNAME_INPUT } },
    CardControlsInput: {
      description: "spec 2.10; absent: unchanged, null: cleared",
      fields: {
        daily_limit: LIMIT_INPUT,
        monthly_limit: LIMIT_INPUT,
        single_transaction_limit: LIMIT_INPUT,
        allowed_mcc: mccsInput("only these merchant category codes (four digits); null or empty: any"),
        blocked_mcc: mccsInput("these merchant category codes are declined; never together with allowed_mcc (422 CRD-422-001)"),
      },
    },
    CardFundingSourceInput: { fields: { id: { schema: FundingSourceId } } },
  },
} satisfies RestResource;

const CardId = Type.Object({ card_id: Type.String({ minLength: 1, maxLength: 64, description: "crd_<id>" }) });

type GraphQLFundingSource = { type: CardFundingSourceType; id: string };
type RestFundingSource = { type: "crypto_wallet"; id: number } | { type: "bank_account"; id: string };

/**
 * GraphQL carries a funding source's id as a String (wallet and bank account ids share the
 * field); REST carries a wallet id as the integer of spec 2.3. The one conversion each way, for
 * every route that reads or writes a funding source.
 */
export function fundingSourceInput(source: Static<typeof Generated.CardFundingSourceInput>): GraphQLFundingSource {
  return { type: source.type, id: String(source.id) };
}

export function restFundingSource(source: GraphQLFundingSource): RestFundingSource {
  return source.type === "crypto_wallet" ? { type: source.type, id: Number(source.id) } : { type: source.type, id: source.id };
}

/** A card as REST answers it: its funding source's wallet id an integer. */
export function restCard<C extends { funding_source: GraphQLFundingSource }>(card: C): Omit<C, "funding_source"> & { funding_source: RestFundingSource } {
  return { ...card, funding_source: restFundingSource(card.funding_source) };
}

const LIFECYCLE =
  "Statuses follow spec 3.3: a virtual card is `active` once the issuer confirms it (at creation with the sandbox issuer); a physical card stays `pending` until you activate it with the last four digits printed on it. `freeze` moves `active` → `suspended`, `unfreeze` `suspended` → `active`, `close` `active` → `closed` for good — and also `suspended` → `closed`, beyond the spec's table, because a lost card is frozen first and should not have to be unfrozen (open to authorizations) to be closed. Any other move is 409 `CRD-409-001` naming the current status; every change is in `status_history`.";

export function cardLinks(base: string, card: { id: string; status: string; funding_source?: RestFundingSource }) {
  const self = href(base, "/v0/cards/{card_id}", { card_id: card.id });
  const action = (name: string) => link(`${self}/${name}`, { method: "POST" });
  return {
    self: link(self),
    transactions: link(`${href(base, "/v0/transactions")}?card_id=${encodeURIComponent(card.id)}`),
    funding: link(`${self}/funding`),
    ...(card.status !== "closed" && { update: link(self, { method: "PATCH" }) }),
    ...(card.status === "pending" && { activate: action("activate") }),
    ...(card.status === "active" && { freeze: action("freeze") }),
    ...(card.status === "suspended" && { unfreeze: action("unfreeze") }),
    ...((card.status === "active" || card.status === "suspended") && { close: action("close") }),
    ...(card.funding_source?.type === "crypto_wallet" && { funding_wallet: link(href(base, "/v0/wallets/{wallet_id}", { wallet_id: card.funding_source.id })) }),
    ...(card.funding_source?.type === "bank_account" && { funding_bank_account: link(href(base, "/v0/bank-accounts/{bank_account_id}", { bank_account_id: card.funding_source.id })) }),
  };
}

function lifecycleRoute(operationId: "freezeCard" | "unfreezeCard" | "closeCard", action: string, field: string, summary: string, CARD_FIELDS: string) {
  return defineRoute({
    operationId,
    method: "POST",
    path: `/v0/cards/{card_id}/${action}`,
    tag: "Cards",
    summary,
    description: `${LIFECYCLE} Another user's card: 404 \`CRD-404-001\`.`,
    security: ["PlatformJwt", "PlatformPat"],
    params: CardId,
    operation: `mutation ${operationId[0]!.toUpperCase()}${operationId.slice(1)}($id: ID!) { card: ${field}(id: $id) { ${CARD_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.card_id }),
    result: (data) => restCard(data.card),
    links: (body, { base_url }) => cardLinks(base_url, body),
    responses: { 200: { description: "The card in its new status", schema: Type.Ref("Card") } },
    errors: ["USR-403-001", "USR-404-001", "CRD-404-001", "CRD-409-001", "CRD-503-001"],
  });
}

export const routes = ({ CARD_FIELDS, CreateCardInput, UpdateCardInput }: typeof Generated) => [
  defineRoute({
    operationId: "createCard",
    method: "POST",
    path: "/v0/cards",
    tag: "Cards",
    summary: "Issue a virtual or physical card",
    description: [
      "Your identity verification must be `approved` (403 `CRD-403-001` otherwise). `funding_source` is what purchases are paid from (spec 2.10): `crypto_wallet` with one of your wallet ids (404 `WAL-404-001` otherwise), whose chain must carry the card currency's stablecoin (`USD` → USDC, `EUR` → EURC, one to one; 422 `TXN-422-002` otherwise), or `bank_account` with one of your linked bank accounts (404 `BNK-404-001` if it is not yours, unlinked or its login revoked) in the card's currency (another currency: 422 at `funding_source.id`), whose purchases are checked against the balance its bank last reported less the purchases and debits it has not posted yet.",
      "`controls` (optional): `daily_limit`, `monthly_limit`, `single_transaction_limit` as decimal strings in the card's currency, and `allowed_mcc` or `blocked_mcc` (four-digit merchant category codes; both at once is 422 `CRD-422-001`). Days and months are those of your time zone (`GET /v0/budgets/settings`).",
      "A physical card needs `shipping_address`; a virtual one refuses it (422). " + LIFECYCLE,
      "The response never carries the number, CVV or expiry: see `POST /v0/cards/{card_id}/secure-details`. Honours `Idempotency-Key`: a retry answers the first card and issues nothing more. Without a card issuer (`CARD_ISSUER`): 503 `CRD-503-001`.",
    ].join("\n\n"),
    security: ["PlatformJwt", "PlatformPat"],
    idempotent: true,
    body: CreateCardInput,
    operation: `mutation CreateCard($input: CreateCardInput!, $idempotency_key: String) { card: create_card(input: $input, idempotency_key: $idempotency_key) { ${CARD_FIELDS} } }`,
    variables: ({ body }) => ({ input: { ...body, funding_source: fundingSourceInput(body.funding_source) } }),
    result: (data) => restCard(data.card),
    status: 201,
    links: (body, { base_url }) => cardLinks(base_url, body),
    responses: { 201: { description: "The card (also the answer to a retry with the same Idempotency-Key)", schema: Type.Ref("Card") } },
    errors: ["USR-403-001", "USR-404-001", "CRD-403-001", "CRD-422-001", "CRD-503-001", "WAL-403-001", "WAL-404-001", "BNK-404-001", "TXN-422-002"],
  }),
  defineRoute({
    operationId: "listCards",
    method: "GET",
    path: "/v0/cards",
    tag: "Cards",
    summary: "Your cards, oldest first",
    description: "Every card, closed ones included, with its controls and how much of each limit the current day and month have used. Never a number, CVV or expiry.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:balances",
    agentExample: {},
    operation: `query ListCards { cards { ${CARD_FIELDS} } }`,
    variables: () => ({}),
    result: (data) => ({ items: data.cards.map(restCard) }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/cards")), create: link(href(base_url, "/v0/cards"), { method: "POST" }) }),
    responses: { 200: { description: "The cards", schema: Type.Object({ items: Type.Array(Type.Ref("Card")), _links: Links }) } },
    errors: ["USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "getCard",
    method: "GET",
    path: "/v0/cards/{card_id}",
    tag: "Cards",
    summary: "One of your cards",
    description: "Its controls and their use today and this month (`usage`), its funding source and status history. Another user's card: 404 `CRD-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:balances",
    agentExample: { card_id: "crd_01JD4ZK2M8Q7" },
    params: CardId,
    operation: `query GetCard($id: ID!) { card(id: $id) { ${CARD_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.card_id }),
    result: (data) => restCard(data.card),
    links: (body, { base_url }) => cardLinks(base_url, body),
    responses: { 200: { description: "The card", schema: Type.Ref("Card") } },
    errors: ["USR-404-001", "CRD-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "updateCard",
    method: "PATCH",
    path: "/v0/cards/{card_id}",
    tag: "Cards",
    summary: "Rename a card or change its controls",
    description:
      "`nickname` and each control: absent keeps it, null clears it. The controls are checked as a whole: setting `allowed_mcc` while `blocked_mcc` is set (or the reverse) is 422 `CRD-422-001`; clear one with null in the same request. They apply to the next authorization. A closed card: 409 `CRD-409-001`. Another user's card: 404 `CRD-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: CardId,
    body: UpdateCardInput,
    operation: `mutation UpdateCard($id: ID!, $input: UpdateCardInput!) { card: update_card(id: $id, input: $input) { ${CARD_FIELDS} } }`,
    variables: ({ params, body }) => ({ id: params.card_id, input: body }),
    result: (data) => restCard(data.card),
    links: (body, { base_url }) => cardLinks(base_url, body),
    responses: { 200: { description: "The card as updated", schema: Type.Ref("Card") } },
    errors: ["USR-403-001", "USR-404-001", "CRD-404-001", "CRD-409-001", "CRD-422-001"],
  }),
  defineRoute({
    operationId: "activateCard",
    method: "POST",
    path: "/v0/cards/{card_id}/activate",
    tag: "Cards",
    summary: "Activate a physical card that arrived",
    description: `\`last_four\` must be the last four digits printed on the card (422 \`CRD-422-002\` otherwise). ${LIFECYCLE} Another user's card: 404 \`CRD-404-001\`.`,
    security: ["PlatformJwt", "PlatformPat"],
    params: CardId,
    body: Type.Object({ last_four: Type.String({ pattern: "^[0-9]{4}$", examples: ["4242"] }) }),
    operation: `mutation ActivateCard($id: ID!, $last_four: String!) { card: activate_card(id: $id, last_four: $last_four) { ${CARD_FIELDS} } }`,
    variables: ({ params, body }) => ({ id: params.card_id, last_four: body.last_four }),
    result: (data) => restCard(data.card),
    links: (body, { base_url }) => cardLinks(base_url, body),
    responses: { 200: { description: "The active card", schema: Type.Ref("Card") } },
    errors: ["USR-403-001", "USR-404-001", "CRD-404-001", "CRD-409-001", "CRD-422-002", "CRD-503-001"],
  }),
  lifecycleRoute("freezeCard", "freeze", "freeze_card", "Freeze a card (active → suspended)", CARD_FIELDS),
  lifecycleRoute("unfreezeCard", "unfreeze", "unfreeze_card", "Unfreeze a card (suspended → active)", CARD_FIELDS),
  lifecycleRoute("closeCard", "close", "close_card", "Close a card for good", CARD_FIELDS),
];
