import { Type } from "@sinclair/typebox";
import { SANDBOX_INSTITUTIONS } from "../../lib/contracts/bank-accounts.ts";
import { href, link } from "../links.ts";
import { defineRoute, SANDBOX_TAG } from "../route.ts";
import { EpochMs, Links, literalUnion, withLinks } from "../schemas.ts";
import { BANK_CONNECTION_STATUSES, BANK_TRANSACTION_TYPES, SANDBOX_BANK_SETTLEMENTS, SANDBOX_LINK_OUTCOMES } from "../../lib/vocabulary/bank-accounts.ts";
import { SPENDING_CATEGORIES, TRANSACTION_DIRECTIONS } from "../../lib/vocabulary/transactions.ts";

const BANK_ACCOUNT_FIELDS = "id institution_id institution_name name account_type currency mask balance connection_status synced_at created_at updated_at";

const BankAccount = Type.Object({
  id: Type.String({ description: "bnk_<id>" }),
  institution_id: Type.String(),
  institution_name: Type.String(),
  name: Type.String({ description: "the bank's name for the account" }),
  account_type: Type.String({ description: "checking, savings or credit" }),
  currency: Type.String({ description: "ISO 4217" }),
  mask: Type.String({ description: "the last four digits of the account number; the rest is never stored" }),
  balance: Type.Union([Type.String(), Type.Null()], { description: "the bank's balance as last reported, a decimal string in `currency`" }),
  connection_status: literalUnion(BANK_CONNECTION_STATUSES, {
    description: "active; reauth_required (the bank wants the user to log in again); error (the provider lost the login); revoked (unlinked). The provider's link.* webhooks move it; revoked is final",
  }),
  synced_at: Type.Union([EpochMs, Type.Null()], { description: "when its transactions last synced; null before the first sync" }),
  created_at: Type.Integer(),
  updated_at: Type.Integer(),
});

const accountHref = (base: string, id: string) => href(base, "/v0/bank-accounts/{bank_account_id}", { bank_account_id: id });
const BankAccountId = Type.Object({ bank_account_id: Type.String({ minLength: 1, maxLength: 64 }) });

/** Open Banking (linking, in Plaid Link's shape) and Bank Accounts. */
export const openBankingRoutes = [
  defineRoute({
    operationId: "createBankLinkToken",
    method: "POST",
    path: "/v0/open-banking/link-token",
    tag: "Open Banking",
    summary: "Start linking a bank: a short-lived token for the provider's widget",
    description:
      "Open the banking provider's widget with `link_token` (30 minutes). The widget hands your app a public token when the user has logged in at their bank; exchange it with POST /v0/open-banking/exchange. In sandbox mode, POST /v0/sandbox/open-banking/link plays the widget. No provider configured: 503 `BNK-503-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    operation: `mutation CreateBankLinkToken { token: create_bank_link_token { link_token expires_at } }`,
    result: (data) => data.token,
    status: 201,
    responses: { 201: { description: "The link token", schema: Type.Object({ link_token: Type.String(), expires_at: Type.Integer() }) } },
    errors: ["BNK-503-001", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "exchangeBankPublicToken",
    method: "POST",
    path: "/v0/open-banking/exchange",
    tag: "Open Banking",
    summary: "Finish linking: the widget's public token for the linked accounts",
    description:
      "Each public token links once and expires after 30 minutes; another user's, a used or an expired one is 400 `BNK-400-001`. The provider's access token is kept sealed on our side, never returned or logged.",
    security: ["PlatformJwt", "PlatformPat"],
    body: Type.Object({ public_token: Type.String({ minLength: 1, maxLength: 2000 }) }),
    operation: `mutation ExchangeBankPublicToken($public_token: String!) { accounts: exchange_bank_public_token(public_token: $public_token) { ${BANK_ACCOUNT_FIELDS} } }`,
    variables: ({ body }) => ({ public_token: body.public_token }),
    result: (data) => ({ items: data.accounts }),
    status: 201,
    links: (_body, { base_url }) => ({ list: link(href(base_url, "/v0/bank-accounts")) }),
    responses: { 201: { description: "The accounts linked", schema: Type.Object({ items: Type.Array(BankAccount), _links: Links }) } },
    errors: ["BNK-400-001", "BNK-503-001", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "playSandboxBankLink",
    method: "POST",
    path: "/v0/sandbox/open-banking/link",
    tag: SANDBOX_TAG,
    summary: "Sandbox: play the banking provider's linking widget",
    description: `Logs in at a sandbox institution with a link token and answers the public token the widget would hand your app. Institutions: ${Object.entries(SANDBOX_INSTITUTIONS)
      .map(([id, institution]) => `\`${id}\` (${institution.name}: ${institution.accounts.map((a) => `${a.account_type} ${a.currency}`).join(", ")})`)
      .join("; ")}. \`outcome\`: \`success\` (default) or \`invalid_credentials\` (422 \`BNK-422-002\`, nothing linked).`,
    security: ["PlatformJwt", "PlatformPat"],
    body: Type.Object({ link_token: Type.String({ minLength: 1, maxLength: 2000 }), institution_id: Type.String({ minLength: 1, maxLength: 100 }), outcome: Type.Optional(literalUnion(SANDBOX_LINK_OUTCOMES)) }),
    operation: `mutation PlaySandboxBankLink($link_token: String!, $institution_id: String!, $outcome: String) { token: sandbox_bank_link(link_token: $link_token, institution_id: $institution_id, outcome: $outcome) { public_token expires_at } }`,
    variables: ({ body }) => ({ link_token: body.link_token, institution_id: body.institution_id, outcome: body.outcome ?? null }),
    result: (data) => data.token,
    status: 201,
    responses: { 201: { description: "The public token", schema: Type.Object({ public_token: Type.String(), expires_at: Type.Integer() }) } },
    errors: ["BNK-400-001", "BNK-422-001", "BNK-422-002", "BNK-503-001", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "createSandboxBankTransaction",
    method: "POST",
    path: "/v0/sandbox/bank-accounts/{bank_account_id}/transactions",
    tag: SANDBOX_TAG,
    summary: "Sandbox: the bank books a transaction on a linked account",
    description:
      "The sandbox bank books it and announces it with a signed `transactions.available` webhook; the platform's receiver syncs it into the feed before this answers, with the ledger transaction's id. `pending: true` leaves it pending until POST /v0/sandbox/transactions/{transaction_id}/bank-settlement posts or removes it. Transactions made here live in the process that made them (the login's history survives a restart).",
    security: ["PlatformJwt", "PlatformPat"],
    params: BankAccountId,
    body: Type.Object({
      amount: Type.String({ pattern: "^[0-9]+(\\.[0-9]+)?$", maxLength: 40, description: "in the account's currency, cents at most", examples: ["42.10"] }),
      direction: literalUnion(TRANSACTION_DIRECTIONS),
      type: literalUnion(BANK_TRANSACTION_TYPES),
      description: Type.String({ minLength: 1, maxLength: 200 }),
      category: Type.Optional(literalUnion(SPENDING_CATEGORIES)),
      merchant_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      counterparty: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      pending: Type.Optional(Type.Boolean({ default: false })),
    }),
    operation: `mutation SandboxBankTransaction($bank_account_id: ID!, $input: SandboxBankTransactionInput!) { delivery: sandbox_bank_transaction(bank_account_id: $bank_account_id, input: $input) { webhook_status transaction_id } }`,
    variables: ({ params, body }) => ({ bank_account_id: params.bank_account_id, input: body }),
    result: (data) => data.delivery,
    status: 201,
    links: (body, { base_url }) => ({ transaction: link(href(base_url, "/v0/transactions/{transaction_id}", { transaction_id: String(body.transaction_id) })) }),
    responses: { 201: { description: "Booked and synced", schema: Type.Object({ webhook_status: Type.Integer(), transaction_id: Type.Union([Type.String(), Type.Null()]), _links: Links }) } },
    errors: ["BNK-404-001", "BNK-502-001", "BNK-503-001", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "settleSandboxBankTransaction",
    method: "POST",
    path: "/v0/sandbox/transactions/{transaction_id}/bank-settlement",
    tag: SANDBOX_TAG,
    summary: "Sandbox: the bank posts or removes a pending bank transaction",
    description:
      "`posted` (optionally at another `amount`, as a tip changes a restaurant bill) moves the ledger transaction pending → processing → completed; `removed` moves it to failed (a posted transaction cannot be removed). Announced with a signed `transactions.available` webhook and synced before this answers. Not a pending bank transaction: 409 `BNK-409-001`; not yours or not a bank transaction: 404 `TXN-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: Type.Object({ transaction_id: Type.String({ minLength: 1, maxLength: 64 }) }),
    body: Type.Object({ outcome: literalUnion(SANDBOX_BANK_SETTLEMENTS), amount: Type.Optional(Type.String({ pattern: "^[0-9]+(\\.[0-9]+)?$", maxLength: 40 })) }),
    operation: `mutation SettleSandboxBankTransaction($transaction_id: ID!, $outcome: String!, $amount: String) { delivery: sandbox_settle_bank_transaction(transaction_id: $transaction_id, outcome: $outcome, amount: $amount) { webhook_status transaction_id outcome } }`,
    variables: ({ params, body }) => ({ transaction_id: params.transaction_id, outcome: body.outcome, amount: body.amount ?? null }),
    result: (data) => data.delivery,
    links: (_body, { base_url, params }) => ({ transaction: link(href(base_url, "/v0/transactions/{transaction_id}", { transaction_id: params.transaction_id })) }),
    responses: { 200: { description: "Settled and synced", schema: Type.Object({ webhook_status: Type.Integer(), transaction_id: Type.Union([Type.String(), Type.Null()]), outcome: Type.Union([Type.String(), Type.Null()]), _links: Links }) } },
    errors: ["TXN-404-001", "BNK-404-001", "BNK-409-001", "BNK-502-001", "BNK-503-001", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "sandboxBankConnectionEvent",
    method: "POST",
    path: "/v0/sandbox/bank-accounts/{bank_account_id}/connection-events",
    tag: SANDBOX_TAG,
    summary: "Sandbox: the banking provider reports on a login",
    description:
      "Delivers the signed webhook the provider would send about the account's login: `link.reauth_required` (→ `reauth_required`), `link.failed` (→ `error`) or `link.completed` (→ `active` again). A move the connection's table does not have (e.g. `link.completed` while active, anything once revoked) is recorded and ignored.",
    security: ["PlatformJwt", "PlatformPat"],
    params: BankAccountId,
    body: Type.Object({ event: literalUnion(["link.completed", "link.failed", "link.reauth_required"] as const) }),
    operation: `mutation SandboxBankConnectionEvent($bank_account_id: ID!, $event: String!) { delivery: sandbox_bank_connection_event(bank_account_id: $bank_account_id, event: $event) { webhook_status } }`,
    variables: ({ params, body }) => ({ bank_account_id: params.bank_account_id, event: body.event }),
    result: (data) => data.delivery,
    links: (_body, { base_url, params }) => ({ bank_account: link(accountHref(base_url, params.bank_account_id)) }),
    responses: { 200: { description: "Delivered", schema: Type.Object({ webhook_status: Type.Integer(), _links: Links }) } },
    errors: ["BNK-404-001", "BNK-502-001", "BNK-503-001", "USR-403-001", "USR-404-001"],
  }),
];

export const bankAccountRoutes = [
  defineRoute({
    operationId: "listBankAccounts",
    method: "GET",
    path: "/v0/bank-accounts",
    tag: "Bank Accounts",
    summary: "Your linked bank accounts",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:balances",
    agentExample: {},
    operation: `query ListBankAccounts { accounts: bank_accounts { ${BANK_ACCOUNT_FIELDS} } }`,
    result: (data) => ({ items: data.accounts }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/bank-accounts")) }),
    responses: { 200: { description: "The accounts, oldest first", schema: Type.Object({ items: Type.Array(BankAccount), _links: Links }) } },
    errors: ["USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "getBankAccount",
    method: "GET",
    path: "/v0/bank-accounts/{bank_account_id}",
    tag: "Bank Accounts",
    summary: "One of your linked bank accounts",
    description: "Another user's, an unlinked one or none: 404 `BNK-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:balances",
    agentExample: { bank_account_id: "bnk_01JD4ZK2M8Q7" },
    params: BankAccountId,
    operation: `query GetBankAccount($id: ID!) { account: bank_account(id: $id) { ${BANK_ACCOUNT_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.bank_account_id }),
    result: (data) => data.account,
    links: (body, { base_url }) => ({ self: link(accountHref(base_url, body.id)), unlink: link(accountHref(base_url, body.id), { method: "DELETE" }) }),
    responses: { 200: { description: "The account", schema: withLinks(BankAccount) } },
    errors: ["BNK-404-001", "USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "unlinkBankAccount",
    method: "DELETE",
    path: "/v0/bank-accounts/{bank_account_id}",
    tag: "Bank Accounts",
    summary: "Unlink a bank account",
    description: "It leaves the list and stops syncing; its past transactions stay in the feed. Once no account of the login is linked, the login is revoked at the provider. Another user's or an already unlinked one: 404 `BNK-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: BankAccountId,
    operation: `mutation UnlinkBankAccount($id: ID!) { account: unlink_bank_account(id: $id) { ${BANK_ACCOUNT_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.bank_account_id }),
    result: (data) => data.account,
    links: (_body, { base_url }) => ({ list: link(href(base_url, "/v0/bank-accounts")) }),
    responses: { 200: { description: "The unlinked account", schema: withLinks(BankAccount) } },
    errors: ["BNK-404-001", "USR-403-001", "USR-404-001"],
  }),
];
