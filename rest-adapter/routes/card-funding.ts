import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { cardFundingSource, Links } from "../route-kit/schemas.ts";
import { CardFundingSourceInput } from "../resources/resources.generated.ts";
import { fundingSourceInput, restFundingSource } from "../resources/card.ts";

const CardId = Type.Object({ card_id: Type.String({ minLength: 1, maxLength: 64, description: "crd_<id>" }) });
const Funding = cardFundingSource({ _links: Links });

function fundingLinks(base: string, cardId: string, funding: ReturnType<typeof restFundingSource>) {
  const self = `${href(base, "/v0/cards/{card_id}", { card_id: cardId })}/funding`;
  return {
    self: link(self),
    update: link(self, { method: "PUT" }),
    card: link(href(base, "/v0/cards/{card_id}", { card_id: cardId })),
    ...(funding.type === "crypto_wallet" && { wallet: link(href(base, "/v0/wallets/{wallet_id}", { wallet_id: funding.id })), balances: link(href(base, "/v0/wallets/{wallet_id}/assets", { wallet_id: funding.id })) }),
    ...(funding.type === "bank_account" && { bank_account: link(href(base, "/v0/bank-accounts/{bank_account_id}", { bank_account_id: funding.id })) }),
  };
}

export const cardFundingRoutes = [
  defineRoute({
    operationId: "getCardFunding",
    method: "GET",
    path: "/v0/cards/{card_id}/funding",
    tag: "Card Funding",
    summary: "What a card spends from",
    description:
      "The card's funding source (spec 2.10): `crypto_wallet` (`id` a wallet id, an integer as in spec 2.3) or `bank_account` (`id` a linked bank account id, a string). Authorizations check its available balance and approved purchases debit it in the ledger, one to one: a wallet's in the card currency's stablecoin (USDC for USD cards, EURC for EUR cards), less its pending outflows; a bank account's in its currency (the card's), the balance its bank last reported less the purchases and debits booked against it that the bank has not posted yet. Another user's card: 404 `CRD-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:balances",
    agentExample: { card_id: "crd_01JD4ZK2M8Q7" },
    params: CardId,
    operation: `query GetCardFunding($id: ID!) { card(id: $id) { id funding_source { type id } } }`,
    variables: ({ params }) => ({ id: params.card_id }),
    result: (data) => restFundingSource(data.card.funding_source),
    links: (body, { base_url, params }) => fundingLinks(base_url, params.card_id, body),
    responses: { 200: { description: "The funding source", schema: Funding } },
    errors: ["USR-404-001", "CRD-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "setCardFunding",
    method: "PUT",
    path: "/v0/cards/{card_id}/funding",
    tag: "Card Funding",
    summary: "Fund a card from another wallet or bank account",
    description:
      "Replaces the funding source with another of yours: a wallet (404 `WAL-404-001` if it is not yours; its chain must carry the card currency's stablecoin, 422 `TXN-422-002`) or a linked bank account in the card's currency (404 `BNK-404-001` if it is not yours, unlinked or its login revoked; another currency: 422 at `id`). The next authorization checks the new source; purchases already approved stay booked against the old one. A closed card refuses: 409 `CRD-409-001`. Another user's card: 404 `CRD-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: CardId,
    body: CardFundingSourceInput,
    operation: `mutation SetCardFunding($id: ID!, $input: CardFundingSourceInput!) { card: set_card_funding(id: $id, input: $input) { id funding_source { type id } } }`,
    variables: ({ params, body }) => ({ id: params.card_id, input: fundingSourceInput(body) }),
    result: (data) => restFundingSource(data.card.funding_source),
    links: (body, { base_url, params }) => fundingLinks(base_url, params.card_id, body),
    responses: { 200: { description: "The new funding source", schema: Funding } },
    errors: ["USR-403-001", "USR-404-001", "CRD-404-001", "CRD-409-001", "WAL-403-001", "WAL-404-001", "BNK-404-001", "TXN-422-002"],
  }),
];
