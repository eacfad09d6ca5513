import { Type } from "@sinclair/typebox";
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "../../lib/contracts/transactions.ts";
import { href, link, pageLinks } from "../route-kit/links.ts";
import type { RestResource } from "../route-kit/resource-overlay.ts";
import { defineRoute, SANDBOX_TAG } from "../route-kit/route.ts";
import { DECIMAL_PATTERN, Links, PageOffset, withLinks } from "../route-kit/schemas.ts";
import type * as Generated from "./resources.generated.ts";

const MCC = "^[0-9]{4}$";

/**
 * A card authorization in REST (the sandbox's card network), written inline by its routes (below): its
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

const CardId = Type.Object({ card_id: Type.String({ minLength: 1, maxLength: 64, description: "crd_<id>" }) });
const AuthorizationId = Type.Object({ authorization_id: Type.String({ minLength: 1, maxLength: 64, description: "cau_<id>" }) });

const RULES = [
  "Every authorization is decided by one set of rules, in this order, the first that fails naming `decline_reason`: the card is `active` (`card_inactive`); `currency` is the card's (`currency_mismatch`); `amount` ≤ `single_transaction_limit` (`single_transaction_limit_exceeded`); the day's and the month's approved purchases plus `amount` within `daily_limit` and `monthly_limit` (`daily_limit_exceeded`, `monthly_limit_exceeded`; days and months of your time zone, `GET /v0/budgets/settings`; purchases pending, processing or completed count, reversed ones do not, refunds give nothing back); `merchant.mcc` in `allowed_mcc` when that is set (`mcc_not_allowed`) and not in `blocked_mcc` (`mcc_blocked`); the funding source's available balance covers `amount` (`insufficient_funds`; also when the funding source can no longer pay, such as a deleted wallet). Exactly at a limit passes. Amounts compare as exact decimals.",
  "An approval books a `card_purchase` (direction `out`, `pending`) of `amount` in the funding wallet's stablecoin (USD → USDC, EUR → EURC, one to one), debiting the wallet and naming the card in `card_id` (`GET /v0/transactions?card_id=`); its category comes from `merchant.mcc`. Authorizations of one card are decided one at a time: of two concurrent ones that only one fits under a limit or the balance, exactly one is approved.",
].join("\n\n");

const SANDBOX = "**Exists only in sandbox mode** (`SANDBOX=true`, the default unless `NODE_ENV=production`); otherwise this path answers 404 like any unknown path and is not in this document. It plays the card network.";

const ACTIONS =
  "`capture` (pending → `captured`: the purchase walks `processing` → `completed`), `reverse` (pending → `reversed`: the purchase walks `processing` → `failed`, freeing the balance and the limits) and `refund` (captured only: a completed `card_refund`, direction `in`, into the wallet the purchase debited, naming the card; `amount` defaults to all that is left, partial refunds add up to at most the captured amount, 422 `CRD-422-003` beyond; the one that reaches it makes the authorization `refunded`). Any other action is 409 `CRD-409-002` naming the status (capturing twice, refunding before capture, reversing after capture). A card's status does not stop a capture, reversal or refund of an earlier approval. Another user's authorization: 404 `CRD-404-002`. Honours `Idempotency-Key`: a retry answers the first response.";

function authorizationLinks(base: string, body: { id: string; card_id: string; status: string; transaction: { id: string } | null }) {
  const action = (name: string) => link(href(base, `/v0/sandbox/card-authorizations/{authorization_id}/${name}`, { authorization_id: body.id }), { method: "POST" });
  return {
    card: link(href(base, "/v0/cards/{card_id}", { card_id: body.card_id })),
    authorizations: link(href(base, "/v0/cards/{card_id}/authorizations", { card_id: body.card_id })),
    ...(body.transaction && { transaction: link(href(base, "/v0/transactions/{transaction_id}", { transaction_id: body.transaction.id })) }),
    ...(body.status === "pending" && { capture: action("capture"), reverse: action("reverse") }),
    ...(body.status === "captured" && { refund: action("refund") }),
  };
}

/** A card's authorizations and the sandbox's card network: authorize, capture, reverse, refund. */
export const routes = ({ CARD_AUTHORIZATION_FIELDS, CardAuthorization, SandboxCardAuthorizationInput, SandboxCardRefundInput }: typeof Generated) => {
  function actionRoute(operationId: "captureSandboxCardAuthorization" | "reverseSandboxCardAuthorization", action: "capture" | "reverse", summary: string) {
    const field = `sandbox_${action}_card_authorization`;
    return defineRoute({
      operationId,
      method: "POST",
      path: `/v0/sandbox/card-authorizations/{authorization_id}/${action}`,
      tag: SANDBOX_TAG,
      summary,
      description: `${SANDBOX} ${ACTIONS}`,
      security: ["PlatformJwt", "PlatformPat"],
      idempotent: true,
      params: AuthorizationId,
      operation: `mutation ${operationId[0]!.toUpperCase()}${operationId.slice(1)}($id: ID!, $idempotency_key: String) { authorization: ${field}(id: $id, idempotency_key: $idempotency_key) { ${CARD_AUTHORIZATION_FIELDS} } }`,
      variables: ({ params }) => ({ id: params.authorization_id }),
      result: (data) => data.authorization,
      links: (body, { base_url }) => authorizationLinks(base_url, body),
      responses: { 200: { description: "The authorization in its new status", schema: withLinks(CardAuthorization) } },
      errors: ["USR-403-001", "USR-404-001", "GEN-404-001", "CRD-404-002", "CRD-409-002"],
    });
  }

  return [
    defineRoute({
      operationId: "listCardAuthorizations",
      method: "GET",
      path: "/v0/cards/{card_id}/authorizations",
      tag: "Cards",
      summary: "A card's authorizations, declined ones included",
      description: `Newest first, each with what the merchant asked, what was decided (\`decline_reason\` when declined), its status and its movements in the ledger. \`limit\` 1 to ${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT}), \`offset\` from 0. Closed cards keep theirs; another user's card: 404 \`CRD-404-001\`.\n\n${RULES}`,
      security: ["PlatformJwt", "PlatformPat"],
      agentScope: "read:transactions",
      agentExample: { card_id: "crd_01JD4ZK2M8Q7", limit: 20 },
      params: CardId,
      query: Type.Object({
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT })),
        offset: PageOffset,
      }),
      operation: `query ListCardAuthorizations($card_id: ID!, $page: PageInput) { authorizations: card_authorizations(card_id: $card_id, page: $page) { items { ${CARD_AUTHORIZATION_FIELDS} } pagination { limit offset total } } }`,
      variables: ({ params, query }) => ({ card_id: params.card_id, page: query }),
      result: (data) => data.authorizations,
      links: (body, { base_url, params }) => {
        return {
          ...pageLinks(href(base_url, "/v0/cards/{card_id}/authorizations", { card_id: params.card_id }), {}, body.pagination),
          card: link(href(base_url, "/v0/cards/{card_id}", { card_id: params.card_id })),
        };
      },
      responses: {
        200: {
          description: "One page of the card's authorizations",
          schema: Type.Object({
            items: Type.Array(CardAuthorization),
            pagination: Type.Object({ limit: Type.Integer(), offset: Type.Integer(), total: Type.Integer({ description: "authorizations of the card, over all pages" }) }),
            _links: Links,
          }),
        },
      },
      errors: ["USR-404-001", "CRD-404-001", "AGT-403-003"],
    }),
    defineRoute({
      operationId: "createSandboxCardAuthorization",
      method: "POST",
      path: "/v0/sandbox/cards/{card_id}/authorizations",
      tag: SANDBOX_TAG,
      summary: "Sandbox mode only: a merchant asks to charge one of your cards",
      description: [
        `${SANDBOX} \`{amount, currency, merchant: {name, mcc}}\` is what a merchant's authorization request carries; \`amount\` has cents at most (422 otherwise).`,
        "The answer is 201 whether it was approved or declined: a decline is recorded too (`decision: declined`, `decline_reason`, `status: declined`, `transaction: null`) and listed by `GET /v0/cards/{card_id}/authorizations`. An approval is `pending` with its `card_purchase` in `transaction`; then `_links` name the next actions: " + ACTIONS,
        RULES,
      ].join("\n\n"),
      security: ["PlatformJwt", "PlatformPat"],
      idempotent: true,
      params: CardId,
      body: SandboxCardAuthorizationInput,
      operation: `mutation CreateSandboxCardAuthorization($card_id: ID!, $input: SandboxCardAuthorizationInput!, $idempotency_key: String) { authorization: sandbox_authorize_card(card_id: $card_id, input: $input, idempotency_key: $idempotency_key) { ${CARD_AUTHORIZATION_FIELDS} } }`,
      variables: ({ params, body }) => ({ card_id: params.card_id, input: body }),
      result: (data) => data.authorization,
      status: 201,
      links: (body, { base_url }) => authorizationLinks(base_url, body),
      responses: { 201: { description: "The authorization as decided, approved or declined (also the answer to a retry with the same Idempotency-Key)", schema: withLinks(CardAuthorization) } },
      errors: ["USR-403-001", "USR-404-001", "GEN-404-001", "CRD-404-001"],
    }),
    actionRoute("captureSandboxCardAuthorization", "capture", "Sandbox mode only: the merchant captures a pending authorization"),
    actionRoute("reverseSandboxCardAuthorization", "reverse", "Sandbox mode only: the merchant reverses a pending authorization"),
    defineRoute({
      operationId: "refundSandboxCardAuthorization",
      method: "POST",
      path: "/v0/sandbox/card-authorizations/{authorization_id}/refund",
      tag: SANDBOX_TAG,
      summary: "Sandbox mode only: the merchant refunds a captured authorization, in full or in part",
      description: `${SANDBOX} Body \`{}\` refunds all that is left, \`{amount}\` part of it. ${ACTIONS}`,
      security: ["PlatformJwt", "PlatformPat"],
      idempotent: true,
      params: AuthorizationId,
      body: SandboxCardRefundInput,
      operation: `mutation RefundSandboxCardAuthorization($id: ID!, $input: SandboxCardRefundInput, $idempotency_key: String) { authorization: sandbox_refund_card_authorization(id: $id, input: $input, idempotency_key: $idempotency_key) { ${CARD_AUTHORIZATION_FIELDS} } }`,
      variables: ({ params, body }) => ({ id: params.authorization_id, input: body }),
      result: (data) => data.authorization,
      links: (body, { base_url }) => authorizationLinks(base_url, body),
      responses: { 200: { description: "The authorization with its refunds", schema: withLinks(CardAuthorization) } },
      errors: ["USR-403-001", "USR-404-001", "GEN-404-001", "CRD-404-002", "CRD-409-002", "CRD-422-003"],
    }),
  ];
};
