import { Type } from "@sinclair/typebox";
import { defineRoute, SANDBOX_TAG } from "../route-kit/route.ts";
import { href, link, pageLinks } from "../route-kit/links.ts";
import { SandboxDepositInput, SandboxPaymentInput, TRANSACTION_FIELDS, TRANSACTION_PAGE_EXPANSIONS, TRANSACTION_PAGE_FIELDS, TransactionPage, UpdateTransactionInput } from "../resources/resources.generated.ts";
import { Instant, literalUnion, PageOffset, withLinks } from "../route-kit/schemas.ts";
import { SANDBOX_BACKDATE_DAYS, SPENDING_CATEGORIES, TRANSACTION_DIRECTIONS, TRANSACTION_STATUSES, TRANSACTION_TYPES } from "../../lib/vocabulary/transactions.ts";
import { DEFAULT_PAGE_LIMIT, MAX_NOTE_LENGTH, MAX_PAGE_LIMIT } from "../../lib/contracts/transactions.ts";

const TransactionId = Type.Object({ transaction_id: Type.String({ minLength: 1, maxLength: 64, description: "txn_<id>" }) });

function transactionLinks(base: string, transaction: { id: string; wallet_id: number | null }) {
  return {
    self: link(href(base, "/v0/transactions/{transaction_id}", { transaction_id: transaction.id })),
    ...(transaction.wallet_id !== null && { wallet: link(href(base, "/v0/wallets/{wallet_id}", { wallet_id: transaction.wallet_id })) }),
  };
}

const DecimalBound = Type.String({ pattern: "^[0-9]{1,60}(\\.[0-9]{1,18})?$", description: "decimal in asset units, compared exactly", examples: ["0.1"] });

const FeedQuery = Type.Object({
  type: Type.Optional(literalUnion(TRANSACTION_TYPES)),
  status: Type.Optional(literalUnion(TRANSACTION_STATUSES)),
  direction: Type.Optional(literalUnion(TRANSACTION_DIRECTIONS)),
  wallet_id: Type.Optional(Type.Integer({ minimum: 1 })),
  card_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  bank_account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "a linked bank account's synced transactions (and card purchases it funded)" })),
  period_start: Type.Optional({ ...Instant, description: `inclusive; ${Instant.description}` }),
  period_end: Type.Optional({ ...Instant, description: `exclusive; ${Instant.description}` }),
  amount_min: Type.Optional({ ...DecimalBound, description: "amount >= amount_min (asset units, exact)" }),
  amount_max: Type.Optional({ ...DecimalBound, description: "amount <= amount_max (asset units, exact)" }),
  category: Type.Optional(literalUnion(SPENDING_CATEGORIES)),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT })),
  offset: PageOffset,
  meta: Type.Optional(Type.Boolean({ default: false, description: "true adds `meta` over the whole filtered set" })),
});

export const transactionRoutes = [
  defineRoute({
    operationId: "listTransactions",
    method: "GET",
    path: "/v0/transactions",
    tag: "Transactions",
    summary: "The user's transaction feed, newest first",
    description: [
      "Every filter is optional and they combine with AND. `period_start` is inclusive and `period_end` exclusive, each in epoch milliseconds or as an ISO 8601 instant; `amount_min`/`amount_max` compare `amount` (asset units) exactly as decimals (`0.1` equals `0.10`). `category` is one of the budget categories.",
      `Order: \`timestamp\` newest first, then \`id\` descending, so walking the pages with \`offset\` while nothing changes yields every transaction once. \`limit\` is 1 to ${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT}; more is a 422), \`offset\` from 0. \`pagination.total\` counts every page; \`_links.next\` and \`_links.prev\` appear when such a page exists.`,
      "`meta=true` adds `meta` (spec 2.10) over the whole filtered set, not only the page: `transaction_count`, `date_range`, `cashflow` in USD from `amount_usd` and spending per category with its share of `gross_out`.",
    ].join("\n\n"),
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { direction: "out", category: "groceries", period_start: 1793491200000, period_end: 1796083200000, meta: true, limit: 20 },
    query: FeedQuery,
    operation: `query ListTransactions($filter: TransactionFilter, $page: PageInput, $meta: Boolean!) { transactions(filter: $filter, page: $page) { ${TRANSACTION_PAGE_FIELDS} ${TRANSACTION_PAGE_EXPANSIONS} } }`,
    variables: ({ query: { limit, offset, meta, ...filter } }) => ({ filter, page: { limit, offset }, meta: meta ?? false }),
    result: (data) => data.transactions,
    // the page's items come as the stored items' text (subgraphs/finance/transactions/feed-page.ts)
    jsonText: true,
    links: (body, { base_url, query }) => pageLinks(href(base_url, "/v0/transactions"), query, body.pagination),
    responses: {
      200: {
        description: "One page of transactions",
        schema: withLinks(TransactionPage),
      },
    },
    errors: ["USR-404-001"],
  }),
  defineRoute({
    operationId: "getTransaction",
    method: "GET",
    path: "/v0/transactions/{transaction_id}",
    tag: "Transactions",
    summary: "One transaction of the user",
    description:
      "`amount` is a decimal string in asset units (`\"0.1\"` for 0.1 ETH, `\"12.5\"` for 12.50 EUR), always positive: `direction` (`in`/`out`) gives the sign. `asset` (`symbol`, `decimals`) is set for crypto, `currency` for fiat. `status_history` lists every status it went through (spec 3.4: `pending` → `processing` → `completed` or `failed`). Another user's transaction: 404 `TXN-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { transaction_id: "txn_01JD4ZK2M8Q7" },
    params: TransactionId,
    operation: `query GetTransaction($id: ID!) { transaction(id: $id) { ${TRANSACTION_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.transaction_id }),
    result: (data) => data.transaction,
    links: (body, { base_url }) => transactionLinks(base_url, body),
    responses: { 200: { description: "The transaction", schema: Type.Ref("Transaction") } },
    errors: ["USR-404-001", "TXN-404-001"],
  }),
  defineRoute({
    operationId: "updateTransaction",
    method: "PATCH",
    path: "/v0/transactions/{transaction_id}",
    tag: "Transactions",
    summary: "Set the category or note of one of your transactions",
    description:
      `Give \`category\` (a budget category, or null to clear it), \`note\` (at most ${MAX_NOTE_LENGTH} characters, or null to clear it) or both; an absent field is unchanged. ` +
      "A category set on a transaction with a merchant is remembered: your later transactions of the same merchant (its name, any case) that arrive without a category get it; null forgets it. Transactions already recorded keep theirs. Another user's transaction: 404 `TXN-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: TransactionId,
    body: UpdateTransactionInput,
    operation: `mutation UpdateTransaction($id: ID!, $input: UpdateTransactionInput!) { transaction: update_transaction(id: $id, input: $input) { ${TRANSACTION_FIELDS} } }`,
    variables: ({ params, body }) => ({ id: params.transaction_id, input: body }),
    result: (data) => data.transaction,
    links: (body, { base_url }) => transactionLinks(base_url, body),
    responses: { 200: { description: "The transaction as updated", schema: Type.Ref("Transaction") } },
    errors: ["USR-403-001", "USR-404-001", "TXN-404-001"],
  }),
  defineRoute({
    operationId: "createSandboxDeposit",
    method: "POST",
    path: "/v0/sandbox/deposits",
    tag: SANDBOX_TAG,
    summary: "Sandbox mode only: credit one of your wallets, without a chain",
    description:
      "**Exists only in sandbox mode** (`SANDBOX=true`, the default unless `NODE_ENV=production`); otherwise this path answers 404 like any unknown path and is not in this document. " +
      "Books a `deposit` (direction `in`) of `amount` `asset` into the ledger against the wallet, already `completed` (its `status_history` walks `pending` → `processing` → `completed` at once), so balances and the transaction feed can be tried by a new user. " +
      "`wallet_id` must be one of your wallets (EOA or Safe; another user's, a deleted one or a signer address: 404 `WAL-404-001`); `asset` is a symbol of the asset catalogue on the wallet's chain, in any case (else 422 `TXN-422-002`); `amount` is a positive decimal string in asset units with at most the asset's decimals (`\"0.1\"` ETH, `\"25.5\"` USDC). Honours `Idempotency-Key`.",
    security: ["PlatformJwt", "PlatformPat"],
    idempotent: true,
    body: SandboxDepositInput,
    operation: `mutation CreateSandboxDeposit($input: SandboxDepositInput!, $idempotency_key: String) { transaction: sandbox_deposit(input: $input, idempotency_key: $idempotency_key) { ${TRANSACTION_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.transaction,
    status: 201,
    links: (body, { base_url }) => transactionLinks(base_url, body),
    responses: { 201: { description: "The completed deposit (also the answer to a retry with the same Idempotency-Key)", schema: Type.Ref("Transaction") } },
    errors: ["USR-403-001", "USR-404-001", "GEN-404-001", "WAL-404-001", "TXN-422-002"],
  }),
  defineRoute({
    operationId: "createSandboxPayment",
    method: "POST",
    path: "/v0/sandbox/payments",
    tag: SANDBOX_TAG,
    summary: "Sandbox mode only: pay a merchant from one of your wallets, now or backdated",
    description:
      "**Exists only in sandbox mode** (`SANDBOX=true`, the default unless `NODE_ENV=production`); otherwise this path answers 404 like any unknown path and is not in this document. " +
      "Books a completed outgoing movement (`type` `transfer` by default, or `withdrawal` or `fee`; direction `out`) of `amount` `asset` from the wallet, so spending, the feed's `meta`, budgets and insights can be tried without a chain or a card. " +
      `\`timestamp\` dates it (epoch milliseconds or ISO 8601, from ${SANDBOX_BACKDATE_DAYS} days ago to now; default now), so a history of monthly charges can be built for insights; its \`amount_usd\` is at today's price. ` +
      "Its `category` is the one given, else the one you last gave this merchant (`PATCH /v0/transactions/{transaction_id}`), else the one its `merchant.mcc` (ISO 18245 merchant category code) says. " +
      "The wallet and asset rules are those of `POST /v0/sandbox/deposits`; a payment the wallet cannot cover is 409 `TXN-409-002`. Honours `Idempotency-Key`.",
    security: ["PlatformJwt", "PlatformPat"],
    idempotent: true,
    body: SandboxPaymentInput,
    operation: `mutation CreateSandboxPayment($input: SandboxPaymentInput!, $idempotency_key: String) { transaction: sandbox_payment(input: $input, idempotency_key: $idempotency_key) { ${TRANSACTION_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.transaction,
    status: 201,
    links: (body, { base_url }) => transactionLinks(base_url, body),
    responses: { 201: { description: "The completed payment (also the answer to a retry with the same Idempotency-Key)", schema: Type.Ref("Transaction") } },
    errors: ["USR-403-001", "USR-404-001", "GEN-404-001", "WAL-404-001", "TXN-409-002", "TXN-422-002"],
  }),
];
