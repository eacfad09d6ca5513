import { Type } from "@sinclair/typebox";
import { defineRoute, SANDBOX_TAG } from "../route.ts";
import { href, link } from "../links.ts";
import { TRANSACTION_FIELDS } from "../graphql-fields.ts";

const TransactionId = Type.Object({ transaction_id: Type.String({ minLength: 1, maxLength: 64, description: "txn_<id>" }) });

function transactionLinks(base: string, transaction: { id: string; wallet_id: number | null }) {
  return {
    self: link(href(base, "/v0/transactions/{transaction_id}", { transaction_id: transaction.id })),
    ...(transaction.wallet_id !== null && { wallet: link(href(base, "/v0/wallets/{wallet_id}", { wallet_id: transaction.wallet_id })) }),
  };
}

export const transactionRoutes = [
  defineRoute({
    operationId: "getTransaction",
    method: "GET",
    path: "/v0/transactions/{transaction_id}",
    tag: "Transactions",
    summary: "One transaction of the user",
    description:
      "`amount` is a decimal string in asset units (`\"0.1\"` for 0.1 ETH, `\"12.5\"` for 12.50 EUR), always positive: `direction` (`in`/`out`) gives the sign. `asset` (`symbol`, `decimals`) is set for crypto, `currency` for fiat. `status_history` lists every status it went through (spec 3.4: `pending` → `processing` → `completed` or `failed`). Another user's transaction: 404 `TXN-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: TransactionId,
    operation: `query GetTransaction($id: ID!) { transaction(id: $id) { ${TRANSACTION_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.transaction_id }),
    result: (data) => data.transaction,
    links: (body, { base_url }) => transactionLinks(base_url, body),
    responses: { 200: { description: "The transaction", schema: Type.Ref("Transaction") } },
    errors: ["USR-404-001", "TXN-404-001"],
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
    body: Type.Object({
      wallet_id: Type.Integer({ minimum: 1 }),
      asset: Type.String({ minLength: 1, maxLength: 32, description: "asset symbol, e.g. ETH or USDC", examples: ["USDC"] }),
      amount: Type.String({ pattern: "^[0-9]+(\\.[0-9]+)?$", maxLength: 80, description: "positive decimal string in asset units", examples: ["25.5"] }),
      description: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    }),
    operation: `mutation CreateSandboxDeposit($input: SandboxDepositInput!, $idempotency_key: String) { transaction: sandbox_deposit(input: $input, idempotency_key: $idempotency_key) { ${TRANSACTION_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.transaction,
    status: 201,
    links: (body, { base_url }) => transactionLinks(base_url, body),
    responses: { 201: { description: "The completed deposit (also the answer to a retry with the same Idempotency-Key)", schema: Type.Ref("Transaction") } },
    errors: ["USR-403-001", "USR-404-001", "GEN-404-001", "WAL-404-001", "TXN-422-002"],
  }),
];
