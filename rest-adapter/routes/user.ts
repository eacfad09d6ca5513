import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { Links, literalUnion, withLinks } from "../route-kit/schemas.ts";
import { CreatePersonalAccessTokenInput, CreateUserInput, PERSONAL_ACCESS_TOKEN_FIELDS, PersonalAccessToken, USER_EXPANSIONS, USER_FIELDS } from "../resources/resources.generated.ts";

const EXPANDABLE = ["wallets", "status_history"] as const;

function userLinks(base: string) {
  return {
    self: link(href(base, "/v0/user/me")),
    wallets: link(href(base, "/v0/wallets")),
    onboarding_safe: link(href(base, "/v0/user/me/onboarding/safe")),
    kyc_status: link(href(base, "/v0/kyc/status")),
  };
}

/** `expand` may repeat and may hold comma-separated names. */
function splitExpand(query: Record<string, unknown>) {
  if (query.expand !== undefined) {
    const values = Array.isArray(query.expand) ? query.expand : [query.expand];
    query.expand = values.flatMap((v) => String(v).split(",")).map((v) => v.trim()).filter(Boolean);
  }
  return query;
}

export const userRoutes = [
  defineRoute({
    operationId: "createUser",
    method: "POST",
    path: "/v0/user/",
    tag: "User",
    summary: "Create the user for the JWT's subject",
    description: [
      "Registers the caller (JWT only): the user starts in `pending` with its primary EOA wallet, and the primary Safe's deployment starts (`safe_creation_status: processing`). A second call for the same subject creates nothing and answers 409 `USR-409-001`.",
      "",
      "The documented body is enough (spec 4.3). **Proof of control of `primary_eoa_address`** is optional and recorded on the wallet (`address_verified`); without it the address is registered unproven, and what a squatter could turn against the address's real owner waits for the proof (POST /v0/wallets/{wallet_id}/address-proof; see `address_verified` on the Wallet). An environment in strict mode (`REGISTRATION_PROOF`) refuses registration without proof: 403 `USR-403-002`, nothing created. A proof offered that does not check out is 403 `USR-403-002` too. Either the JWT vouches for the address:",
      "- a sign-in-with-Ethereum session token (`siwe` provider) whose `sub` is the address, or",
      "- an identity token whose `linked_accounts` (array, or that array as a JSON string) holds `{type: \"wallet\", address}`, or whose `verified_credentials` holds `{format: \"blockchain\", address}` for the address;",
      "",
      "or the body adds `issued_at` (epoch ms, within 10 minutes of the server's clock) and `signature`: the address's EIP-191 `personal_sign` signature (a contract account: ERC-1271, or ERC-6492 before deployment, checked on `chain_id` through `CHAIN_RPC_URLS`) over exactly this text, lines joined by `\\n`:",
      "",
      "```",
      "Register user",
      "Environment: <default, or <org-id>:<env-id> as sent in x-platform-orgid>",
      "Issuer: <the JWT's iss>",
      "Subject: <the JWT's sub>",
      "Address: <primary_eoa_address, EIP-55 checksummed>",
      "Chain ID: <chain_id>",
      "Issued At: <issued_at as ISO 8601 with milliseconds, e.g. 2026-11-21T10:00:00.000Z>",
      "```",
      "",
      "A provider vouches only for the users of the environments that trust it. The answer never depends on whether another user registered the same address.",
      "",
      "**Limits** (`ENVIRONMENT_LIMITS`): each environment creates at most `users_per_hour` users in any rolling hour (429 `USR-429-001`) and starts at most `safe_deployments_per_day` Safe deployments in any rolling 24 hours (429 `WAL-429-001`); both answer `Retry-After` in seconds and create nothing.",
    ].join("\n"),
    security: ["PlatformJwt"],
    body: CreateUserInput,
    operation: `mutation CreateUser($input: CreateUserInput!) { user: create_user(input: $input) { ${USER_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.user,
    status: 201,
    links: (_body, { base_url }) => userLinks(base_url),
    responses: { 201: { description: "The user, created", schema: Type.Ref("User") } },
    errors: ["USR-403-001", "USR-403-002", "USR-409-001", "USR-429-001", "WAL-429-001", "CHN-502-001"],
  }),
  defineRoute({
    operationId: "getCurrentUser",
    method: "GET",
    path: "/v0/user/me",
    tag: "User",
    summary: "The authenticated user",
    description: "`expand=wallets` and `expand=status_history` (repeated or comma-separated) add those keys; without them the keys are absent.",
    security: ["PlatformJwt", "PlatformPat"],
    query: Type.Object({
      expand: Type.Optional(Type.Array(literalUnion(EXPANDABLE), { description: "wallets, status_history" })),
    }),
    prepareQuery: splitExpand,
    operation: `query CurrentUser($wallets: Boolean!, $status_history: Boolean!) { me { ${USER_FIELDS} ${USER_EXPANSIONS} } }`,
    variables: ({ query }) => ({ wallets: query.expand?.includes("wallets") ?? false, status_history: query.expand?.includes("status_history") ?? false }),
    result: (data) => data.me,
    links: (_body, { base_url }) => userLinks(base_url),
    responses: { 200: { description: "The user", schema: Type.Ref("User") } },
    errors: ["USR-404-001"],
  }),
];

export const personalAccessTokenRoutes = [
  defineRoute({
    operationId: "createPersonalAccessToken",
    method: "POST",
    path: "/v0/user/me/personal-access-tokens",
    tag: "User",
    summary: "Issue a personal access token (CLI)",
    description:
      "JWT only. The token (`plat_pat_` + 40 base62 characters + a 6-character CRC32 checksum, so secret scanners can spot it) is returned once in `token`; only its SHA-256 hash is stored. Scopes: `read` (GET operations) and `write` (changes). Send it as `x-platform-pat`.",
    security: ["PlatformJwt"],
    body: CreatePersonalAccessTokenInput,
    operation: `mutation CreatePat($input: CreatePersonalAccessTokenInput!) { token: create_personal_access_token(input: $input) { ${PERSONAL_ACCESS_TOKEN_FIELDS} token } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.token,
    status: 201,
    links: (body, { base_url }) => ({
      self: link(href(base_url, "/v0/user/me/personal-access-tokens/{token_id}", { token_id: body.id })),
      revoke: link(href(base_url, "/v0/user/me/personal-access-tokens/{token_id}", { token_id: body.id }), { method: "DELETE" }),
      list: link(href(base_url, "/v0/user/me/personal-access-tokens")),
    }),
    responses: { 201: { description: "The token, with its secret shown this once", schema: withLinks(Type.Composite([PersonalAccessToken, Type.Object({ token: Type.String() })])) } },
    errors: ["USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "listPersonalAccessTokens",
    method: "GET",
    path: "/v0/user/me/personal-access-tokens",
    tag: "User",
    summary: "List the user's personal access tokens (never their secrets)",
    security: ["PlatformJwt"],
    operation: `query ListPats { tokens: personal_access_tokens { ${PERSONAL_ACCESS_TOKEN_FIELDS} } }`,
    result: (data) => ({ items: data.tokens }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/user/me/personal-access-tokens")) }),
    responses: { 200: { description: "The tokens", schema: Type.Object({ items: Type.Array(PersonalAccessToken), _links: Links }) } },
    errors: ["USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "revokePersonalAccessToken",
    method: "DELETE",
    path: "/v0/user/me/personal-access-tokens/{token_id}",
    tag: "User",
    summary: "Revoke a personal access token",
    description: "Takes effect on the next request. Revoking an already revoked token answers the same.",
    security: ["PlatformJwt"],
    params: Type.Object({ token_id: Type.String({ minLength: 1 }) }),
    operation: `mutation RevokePat($id: ID!) { token: revoke_personal_access_token(id: $id) { ${PERSONAL_ACCESS_TOKEN_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.token_id }),
    result: (data) => data.token,
    links: (_body, { base_url }) => ({ list: link(href(base_url, "/v0/user/me/personal-access-tokens")) }),
    responses: { 200: { description: "The revoked token", schema: withLinks(PersonalAccessToken) } },
    errors: ["USR-403-001", "USR-404-001", "PAT-404-001"],
  }),
];
