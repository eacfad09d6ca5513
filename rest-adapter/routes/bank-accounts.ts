import { Type } from "@sinclair/typebox";
import { SANDBOX_INSTITUTIONS, SANDBOX_LINK_OUTCOMES } from "../../subgraphs/finance/banking/sandbox-banking-provider.ts";
import { href, link } from "../links.ts";
import { defineRoute, SANDBOX_TAG } from "../route.ts";
import { Links, literalUnion, withLinks } from "../schemas.ts";

const BANK_ACCOUNT_FIELDS = "id institution_id institution_name name account_type currency mask balance connection_status created_at updated_at";

const BankAccount = Type.Object({
  id: Type.String({ description: "bnk_<id>" }),
  institution_id: Type.String(),
  institution_name: Type.String(),
  name: Type.String({ description: "the bank's name for the account" }),
  account_type: Type.String({ description: "checking, savings or credit" }),
  currency: Type.String({ description: "ISO 4217" }),
  mask: Type.String({ description: "the last four digits of the account number; the rest is never stored" }),
  balance: Type.Union([Type.String(), Type.Null()], { description: "the bank's balance as last reported, a decimal string in `currency`" }),
  connection_status: Type.String({ description: "active, reauth_required (log in at the bank again) or revoked" }),
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
