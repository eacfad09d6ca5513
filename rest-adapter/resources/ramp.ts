import type { RestResource } from "../route-kit/resource-overlay.ts";
import { TRANSACTION_STATUSES } from "../../lib/vocabulary/transactions.ts";
import { RAMP_TERMS } from "./ramp-quote.ts";
import { Type } from "@sinclair/typebox";
import { RAMP_DIRECTIONS, SANDBOX_RAMP_OUTCOMES, type RampDirection } from "../../lib/vocabulary/bank-accounts.ts";
import { href, link } from "../route-kit/links.ts";
import { defineRoute, SANDBOX_TAG } from "../route-kit/route.ts";
import { Links, literalUnion, withLinks } from "../route-kit/schemas.ts";
import type * as Generated from "./resources.generated.ts";

/** An on- or off-ramp in REST, written inline by the Ramps routes. */
export const resource = {
  type: "Ramp",
  component: false,
  types: {
    Ramp: {
      fields: {
        ...RAMP_TERMS,
        status: {
          values: TRANSACTION_STATUSES,
          description: "its ledger transaction's (spec 3.4): pending when recorded, then processing, completed or failed as the provider reports by webhook",
        },
      },
    },
  },
} satisfies RestResource;

const rampHref = (base: string, id: string) => href(base, "/v0/ramps/{ramp_id}", { ramp_id: id });
const RampId = Type.Object({ ramp_id: Type.String({ minLength: 1, maxLength: 64, description: "rmp_<id>" }) });
const rampLinks = (body: { id: string; transaction_id: string }, base: string) => ({
  self: link(rampHref(base, body.id)),
  transaction: link(href(base, "/v0/transactions/{transaction_id}", { transaction_id: body.transaction_id })),
});

const RAMP_ERRORS = ["RMP-403-001", "RMP-404-001", "RMP-409-001", "RMP-409-002", "RMP-409-003", "RMP-422-002", "BNK-404-001", "BNK-503-001", "WAL-404-001", "USR-403-001", "USR-404-001"] as const;

/** What POST /v0/ramps/on and /off share: everything but the operation, which names its direction. */
function carryOut(direction: RampDirection, Ramp: typeof Generated.Ramp) {
  const on = direction === "on";
  return {
    method: "POST" as const,
    path: `/v0/ramps/${direction}`,
    tag: "Open Banking",
    summary: on ? "On-ramp: buy a crypto asset into a wallet from a linked bank account" : "Off-ramp: sell a wallet's crypto asset to a linked bank account",
    description: [
      `Carries out an \`${direction}\` quote from POST /v0/ramps/quotes, once: a used quote is 409 \`RMP-409-001\` (also when two requests race), an expired one 409 \`RMP-409-002\`, an \`${on ? "off" : "on"}\` quote 422 \`RMP-422-002\`. Your identity verification must be \`approved\` (403 \`RMP-403-001\`) and the bank account's connection \`active\` (409 \`RMP-409-003\`).`,
      on
        ? "Books an `on_ramp` transaction into the wallet (direction in). It counts in the wallet's balance once `completed`."
        : "Books an `off_ramp` transaction out of the wallet, which never sends more than the wallet holds: an amount above its available balance (pending outflows counted) is 409 `TXN-409-002` with nothing booked. A failed off-ramp gives the amount back.",
      "The ramp is recorded `pending`; every later move is the provider's, reported by its signed webhook at POST /v0/webhooks/banking-provider/events: `ramp.processing` once it moves the money (the sandbox sends it before this answers, so a sandbox ramp answers `processing`), then `ramp.completed` or `ramp.failed`, which move the ramp and its transaction on (spec 3.4). In sandbox mode, POST /v0/sandbox/ramps/{ramp_id}/settle plays the outcome. Honours `Idempotency-Key`: a retry answers the ramp as first recorded and orders nothing more.",
    ].join("\n\n"),
    security: ["PlatformJwt", "PlatformPat"] as ("PlatformJwt" | "PlatformPat")[],
    idempotent: true,
    body: Type.Object({ quote_id: Type.String({ minLength: 1, maxLength: 64, description: "rmq_<id>" }) }),
    variables: ({ body }: { body: { quote_id: string } }) => ({ quote_id: body.quote_id }),
    status: 201,
    responses: { 201: { description: "The ramp, processing (also the answer to a retry with the same Idempotency-Key)", schema: withLinks(Ramp) } },
    errors: [...RAMP_ERRORS, ...(on ? [] : (["TXN-409-002", "WAL-403-001"] as const))],
  };
}

/** On- and off-ramps through the banking provider: quote, carry out, follow. */
export const routes = ({ Ramp, RAMP_FIELDS, RAMP_QUOTE_FIELDS, RampQuote, RampQuoteInput }: typeof Generated) => [
  defineRoute({
    operationId: "createRampQuote",
    method: "POST",
    path: "/v0/ramps/quotes",
    tag: "Open Banking",
    summary: "Price an on- or off-ramp: rate, fee and amounts for five minutes",
    description: [
      "`on`: `amount` is the fiat the bank account pays (cents at most); the wallet receives (amount − fee) / rate, cut to the asset's decimals. `off`: `amount` is the asset the wallet sends (the asset's decimals at most); the bank account receives amount × rate cut to cents, less the fee. The rate is the asset's price in the bank account's currency (PRICE_SOURCE); the fee is the provider's, in fiat. Every figure is an exact decimal string.",
      "The bank account must be yours and linked (404 `BNK-404-001`) with an `active` connection (409 `RMP-409-003`), the wallet yours (404 `WAL-404-001`), the asset in the catalogue on the wallet's chain (422 `TXN-422-002`). Nothing left after the fee: 422 `RMP-422-001`. No price known: 503 `RMP-503-001`. A quote moves nothing: carry it out with POST /v0/ramps/on or /v0/ramps/off before `expires_at`.",
    ].join("\n\n"),
    security: ["PlatformJwt", "PlatformPat"],
    body: RampQuoteInput,
    operation: `mutation CreateRampQuote($input: RampQuoteInput!) { quote: create_ramp_quote(input: $input) { ${RAMP_QUOTE_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.quote,
    status: 201,
    links: (body, { base_url }) => ({ carry_out: link(href(base_url, `/v0/ramps/${body.direction}`), { method: "POST" }) }),
    responses: { 201: { description: "The quote", schema: withLinks(RampQuote) } },
    errors: ["BNK-404-001", "BNK-503-001", "RMP-409-003", "RMP-422-001", "RMP-503-001", "WAL-403-001", "WAL-404-001", "TXN-422-002", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    ...carryOut("on", Ramp),
    operationId: "createOnRamp",
    operation: `mutation CreateOnRamp($quote_id: ID!, $idempotency_key: String) { ramp: create_ramp(direction: on, quote_id: $quote_id, idempotency_key: $idempotency_key) { ${RAMP_FIELDS} } }`,
    result: (data) => data.ramp,
    links: (body, { base_url }) => rampLinks(body, base_url),
  }),
  defineRoute({
    ...carryOut("off", Ramp),
    operationId: "createOffRamp",
    operation: `mutation CreateOffRamp($quote_id: ID!, $idempotency_key: String) { ramp: create_ramp(direction: off, quote_id: $quote_id, idempotency_key: $idempotency_key) { ${RAMP_FIELDS} } }`,
    result: (data) => data.ramp,
    links: (body, { base_url }) => rampLinks(body, base_url),
  }),
  defineRoute({
    operationId: "listRamps",
    method: "GET",
    path: "/v0/ramps",
    tag: "Open Banking",
    summary: "Your on- and off-ramps, newest first",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { direction: "off", limit: 10 },
    query: Type.Object({ direction: Type.Optional(literalUnion(RAMP_DIRECTIONS)), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) }),
    operation: `query ListRamps($direction: RampDirection, $limit: Int) { ramps(direction: $direction, limit: $limit) { ${RAMP_FIELDS} } }`,
    variables: ({ query }) => ({ direction: query.direction ?? null, limit: query.limit ?? null }),
    result: (data) => ({ items: data.ramps }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/ramps")) }),
    responses: { 200: { description: "The ramps", schema: Type.Object({ items: Type.Array(Ramp), _links: Links }) } },
    errors: ["USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "getRamp",
    method: "GET",
    path: "/v0/ramps/{ramp_id}",
    tag: "Open Banking",
    summary: "One of your ramps",
    description: "Another user's or none: 404 `RMP-404-002`.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { ramp_id: "rmp_01JD4ZK2M8Q7" },
    params: RampId,
    operation: `query GetRamp($id: ID!) { ramp(id: $id) { ${RAMP_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.ramp_id }),
    result: (data) => data.ramp,
    links: (body, { base_url }) => rampLinks(body, base_url),
    responses: { 200: { description: "The ramp", schema: withLinks(Ramp) } },
    errors: ["RMP-404-002", "USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "settleSandboxRamp",
    method: "POST",
    path: "/v0/sandbox/ramps/{ramp_id}/settle",
    tag: SANDBOX_TAG,
    summary: "Sandbox: the banking provider finishes a ramp",
    description:
      "The sandbox provider reports the ramp `completed` or `failed` with a signed webhook to the platform's receiver, as the real provider would, and answers once the receiver did. An on-ramp larger than the sandbox bank balance fails with `insufficient_funds` whatever is asked. A completed ramp also moves the money at the bank: a posted `bank_transfer` on the bank account, synced into the feed. Reporting a finished ramp again is recorded and ignored (the ramp keeps its outcome). Ramps live in the process that created them: after a restart this is 404 `RMP-404-002`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: RampId,
    body: Type.Object({ outcome: literalUnion(SANDBOX_RAMP_OUTCOMES) }),
    operation: `mutation SettleSandboxRamp($ramp_id: ID!, $outcome: String!) { delivery: sandbox_settle_ramp(ramp_id: $ramp_id, outcome: $outcome) { webhook_status transaction_id outcome } }`,
    variables: ({ params, body }) => ({ ramp_id: params.ramp_id, outcome: body.outcome }),
    result: (data) => data.delivery,
    links: (_body, { base_url, params }) => ({ ramp: link(rampHref(base_url, params.ramp_id)) }),
    responses: { 200: { description: "The delivery", schema: Type.Object({ webhook_status: Type.Integer(), transaction_id: Type.Union([Type.String(), Type.Null()]), outcome: Type.Union([Type.String(), Type.Null()]), _links: Links }) } },
    errors: ["RMP-404-002", "BNK-502-001", "BNK-503-001", "USR-403-001", "USR-404-001"],
  }),
];
