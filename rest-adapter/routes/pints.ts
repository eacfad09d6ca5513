import { Type } from "@sinclair/typebox";
import { PINT_SCOPES, PINT_SCOPE_NAMES } from "../../lib/auth/pint-scopes.ts";
import { defineRoute, type Route } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { Links, literalUnion, PageOffset, withLinks } from "../route-kit/schemas.ts";
import {
  PINT_AUDIENCE_FIELDS,
  PINT_EXCHANGE_FIELDS,
  PINT_JWKS_FIELDS,
  PINT_MANDATE_FIELDS,
  PintAudience,
  PintExchange,
  PintJwks,
  PintMandate,
  RegisterPintAudienceInput,
} from "../resources/resources.generated.ts";

/**
 * PINT exchange and administration on the identity host ({sis_url}): the exchange itself (API
 * key), the PINT token's own view of its mandate, the JWKS that verifies PINT JWTs, and the
 * organisation's audiences and mandates (dashboard session). The user's side of revocation is
 * on the platform host (resources/pint-mandate.ts).
 */

const SCOPE_TABLE = [
  "| scope | grants | agent signer may grant |",
  "|---|---|---|",
  ...PINT_SCOPE_NAMES.map((name) => `| \`${name}\` | ${PINT_SCOPES[name].description} | ${PINT_SCOPES[name].access === "read" ? "yes" : "no"} |`),
].join("\n");

export const PINT_TOKEN_USE = [
  "**Where a PINT JWT is accepted** (header `x-platform-pint-token`, on the identity host; it is the credential on its own, and wins over `Authorization` when both are sent):",
  "",
  "- `GET /v0/users/{sri}`: the mandate's own user only (any other SRI answers 404 `IDS-404-001`); needs `profile.read` (else 403 `IDS-403-001`); `identity_record` with `identity.read`, `kyc` with `kyc.read`.",
  "- `GET /v0/idsvc/token/pint`: the token's own mandate (status, scopes, expiry).",
  "",
  "Every request checks the mandate's row: a revoked mandate's JWT fails at once with 401 `PINT-401-006`; an invalid or foreign JWT 401 `PINT-401-003`; an expired one 401 `PINT-401-004`. The platform host (`x-platform-*` headers) does not accept PINT JWTs.",
].join("\n");

/** Where the exchange's description names this deployment's salt; filled in when the identity host builds its document. */
const PINT_DOMAIN_SALT_PLACEHOLDER = "{pint_domain_salt}";

const EXCHANGE_DESCRIPTION = [
  "Server API key with `idsvc.token_exchange` (`Authorization: Bearer idsvc_sk_…`). Exchanges a mandate signed by a user's wallet for a PINT JWT that lets the mandate's **audience** (a third-party identifier the key's organisation registered under `/v0/organisation/{org_id}/audiences`, named in its namespaced form `<org_id>:<identifier>`, the registration's `audience` field) act with the mandate's **scopes** on that user.",
  "",
  "### The mandate (EIP-712)",
  "",
  "```",
  'domain  = { name: "PINT", version: "1", chainId: <chain of the wallet>, salt: <this deployment\'s salt> }',
  "types   = { Mandate: [",
  '  { name: "wallet",    type: "address"  },   // the user\'s wallet: an EOA, or a Safe',
  '  { name: "signer",    type: "address"  },   // the key that signs: the wallet itself (EOA), or an owner of the Safe',
  '  { name: "audience",  type: "string"   },   // a registered audience: <org_id>:<identifier>',
  '  { name: "scopes",    type: "string[]" },   // from the PINT scope catalogue below',
  '  { name: "nonce",     type: "uint256"  },   // single use per (wallet, chain)',
  '  { name: "expiresAt", type: "uint64"   },   // Unix seconds; at most 90 days ahead',
  "] }",
  'primaryType = "Mandate"',
  "```",
  "",
  `\`salt\` (bytes32) names the deployment, so a mandate signed for one deployment (another operator's, or staging) is refused at another (401 \`PINT-401-001\`). **This deployment's salt is \`${PINT_DOMAIN_SALT_PLACEHOLDER}\`.** It is \`PINT_DOMAIN_SALT\` when the operator sets it, else keccak256 of the identity host's public URL ({sis_url}) as UTF-8 (viem: \`keccak256(stringToHex(sis_url))\`).`,
  "",
  "Body: `{chain_id, mandate, signature}`: `chain_id` is the domain's `chainId`; `mandate` carries exactly the six fields as signed (`nonce` and `expiresAt` as JSON integers or decimal strings); `signature` is 0x-hex.",
  "",
  "Signing with viem, an EOA wallet (signer = wallet):",
  "",
  "```ts",
  'import { privateKeyToAccount } from "viem/accounts";',
  "const account = privateKeyToAccount(USER_PRIVATE_KEY);",
  "const domain = { name: \"PINT\", version: \"1\", chainId: 8453, salt: PINT_DOMAIN_SALT } as const; // the salt above",
  "const types = { Mandate: [",
  '  { name: "wallet", type: "address" }, { name: "signer", type: "address" }, { name: "audience", type: "string" },',
  '  { name: "scopes", type: "string[]" }, { name: "nonce", type: "uint256" }, { name: "expiresAt", type: "uint64" },',
  "] } as const;",
  "const mandate = { wallet: account.address, signer: account.address, audience: \"org_01jb4x8w5n6p7q8r9s0t1v2w3x:com.example.wallet-app\",",
  '  scopes: ["profile.read", "kyc.read"], nonce: 1n, expiresAt: BigInt(Math.floor(Date.now() / 1000) + 3600) };',
  'const signature = await account.signTypedData({ domain, types, primaryType: "Mandate", message: mandate });',
  "await fetch(`${sis_url}/v0/idsvc/token/pint`, { method: \"POST\",",
  '  headers: { authorization: `Bearer ${API_KEY}`, "content-type": "application/json" },',
  "  body: JSON.stringify({ chain_id: 8453, signature,",
  "    mandate: { ...mandate, nonce: mandate.nonce.toString(), expiresAt: Number(mandate.expiresAt) } }) });",
  "```",
  "",
  "A **Safe** wallet (signer = an owner key of the Safe: the user's primary EOA, or a signer registered on the Safe) signs the mandate the Safe way: the owner signs EIP-712 `SafeMessage(bytes message)` over the mandate digest in the Safe's domain, and that signature (Safe format: 65-byte owner signatures, concatenated) is sent:",
  "",
  "```ts",
  'import { hashTypedData } from "viem";',
  'const digest = hashTypedData({ domain, types, primaryType: "Mandate", message: { ...mandate, wallet: SAFE, signer: owner.address } });',
  "const signature = await owner.signTypedData({ domain: { chainId: 8453, verifyingContract: SAFE },",
  '  types: { SafeMessage: [{ name: "message", type: "bytes" }] }, primaryType: "SafeMessage", message: { message: digest } });',
  "```",
  "",
  "### Verification",
  "",
  "- `signer == wallet`: ECDSA recovery of the EIP-712 digest must give the wallet (else 401 `PINT-401-001`).",
  "- `signer != wallet` (a Safe): the signature must hold `signer`'s ECDSA signature over the Safe's `SafeMessage` hash of the digest (`v` 27/28; `v` 31/32 for `eth_sign`) (else 401 `PINT-401-001`), and the Safe must accept it on chain: EIP-1271 `isValidSignature(digest, signature)` = `0x1626ba7e` (legacy `isValidSignature(bytes,bytes)` = `0x20c13b0b`), called through the chain's `CHAIN_RPC_URLS` entry (else 401 `PINT-401-002`; no RPC configured for the chain: 401 `PINT-401-002` saying so; the RPC failing or not answering: 424 `PINT-424-001`, retry with backoff).",
  "- The wallet must be a live wallet (role `wallet`) of a platform user the key's organisation sees on that chain; for an EOA wallet the signer is the wallet itself (`owner`), for a Safe the user's primary EOA (`owner`) or a signer registered on that Safe (`agent`). An `owner` may grant any scope, an `agent` read scopes only (else 403 `PINT-403-001`). The user's KYC must be `approved` (else 403 `PINT-403-002`).",
  "",
  "### PINT scopes",
  "",
  SCOPE_TABLE,
  "",
  "### Check order",
  "",
  "A body the HTTP layer cannot take (not JSON, not sent as `application/json`, empty, or over 16 KiB) is refused before anything else, in the same shape: 400 `PINT-400-001`.",
  "",
  "Each request answers the first failing check: 1. key (401 `IDS-401-001`; no `idsvc.token_exchange` or not a server key: 403 `IDS-403-001`) → 2. rate limit per key (429 `PINT-429-001`, `Retry-After`; every attempt counts) → 3. fields (400 `PINT-400-001`, the detail names each problem) → 4. `expiresAt` passed (410 `PINT-410-001`) → 5. audience not registered by the key's organisation (400 `PINT-400-002`) → 6. this mandate (same digest) revoked (409 `PINT-409-002`) → 7. signature (401 `PINT-401-001`, 401 `PINT-401-002`, 424 `PINT-424-001`) → 8. wallet owner, signer and scopes (403 `PINT-403-001`) → 9. KYC (403 `PINT-403-002`) → 10. nonce: the mandate is stored with a unique (wallet, chain, nonce), so of concurrent exchanges of one nonce exactly one succeeds and the others get 409 `PINT-409-001` (increment the nonce and sign again). Nothing is stored before step 10: a failed exchange consumes no nonce.",
  "",
  "### The PINT JWT",
  "",
  "Signed with the platform key (`SIGNING_KEY`; public keys at `{sis_url}/.well-known/jwks.json`). Claims: `iss` {sis_url}, `sub` the user id, `aud` the audience (`<org_id>:<identifier>`), `jti` the mandate id (`pint_…`), `scope` (space-separated) and `scopes` (array), `wallet`, `chain_id`, `org_id`, `token_use: \"pint\"`, `iat`, `exp` = the mandate's `expiresAt`, at most one hour after issue (exchange a new mandate for more).",
  "",
  PINT_TOKEN_USE,
  "",
  "Revocation: the user (`DELETE {base_url}/v0/user/me/pints/{pint_id}`, JWT or PAT with `write`) or the audience's organisation (`DELETE /v0/organisation/{org_id}/pints/{pint_id}`, or by removing the audience). A revoked mandate yields no new tokens (409 `PINT-409-002`) and its JWT fails at once (401 `PINT-401-006`).",
].join("\n");

/** The route as documented by this deployment: the exchange's description with its salt written in. */
export function documentPintDomainSalt(route: Route, salt: string): Route {
  return route.description?.includes(PINT_DOMAIN_SALT_PLACEHOLDER) ? { ...route, description: route.description.replaceAll(PINT_DOMAIN_SALT_PLACEHOLDER, salt) } : route;
}

/** Bodies of the exchange are small: a mandate and at most 4096 bytes of signature. */
const EXCHANGE_BODY_LIMIT = 16 * 1024;

const ADDRESS_PATTERN = "^0x[0-9a-fA-F]{40}$";

const MandateBody = Type.Object(
  {
    wallet: Type.String({ pattern: ADDRESS_PATTERN, description: "the user's wallet: an EOA, or a Safe" }),
    signer: Type.String({ pattern: ADDRESS_PATTERN, description: "the signing key: the wallet itself, or an owner of the Safe" }),
    audience: Type.String({
      pattern: "^[A-Za-z0-9][A-Za-z0-9._:/-]{2,299}$",
      description: "an audience registered by the key's organisation, namespaced: `<org_id>:<identifier>`",
      examples: ["org_01jb4x8w5n6p7q8r9s0t1v2w3x:com.example.wallet-app"],
    }),
    scopes: Type.Array(literalUnion(PINT_SCOPE_NAMES), { minItems: 1, maxItems: 16, uniqueItems: true }),
    nonce: Type.Union([Type.String({ pattern: "^\\d{1,78}$" }), Type.Integer({ minimum: 0 })], { description: "uint256: single use per wallet and chain" }),
    expiresAt: Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: "^\\d{1,20}$" })], { description: "uint64 Unix seconds, in the future, at most 90 days ahead" }),
  },
  { additionalProperties: false, description: "The EIP-712 `Mandate` message exactly as signed" },
);

const ExchangeBody = Type.Object(
  {
    chain_id: Type.Integer({ minimum: 1, description: "the EIP-712 domain's chainId: the wallet's chain", examples: [8453] }),
    mandate: MandateBody,
    signature: Type.String({ pattern: "^0x([0-9a-fA-F]{2})+$", description: "65-byte ECDSA signature (EOA), or a Safe's concatenated owner signatures" }),
  },
  { additionalProperties: false },
);

const OrgId = Type.Object({ org_id: Type.String({ minLength: 1 }) });
const PintPath = Type.Object({ org_id: Type.String({ minLength: 1 }), pint_id: Type.String({ minLength: 1 }) });
const AudiencePath = Type.Object({ org_id: Type.String({ minLength: 1 }), audience_id: Type.String({ minLength: 1 }) });
const Page = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: PageOffset,
};

function organisationPintLinks(base: string, orgId: string, pintId: string) {
  const self = href(base, "/v0/organisation/{org_id}/pints/{pint_id}", { org_id: orgId, pint_id: pintId });
  return { self: link(self), revoke: link(self, { method: "DELETE" }), list: link(href(base, "/v0/organisation/{org_id}/pints", { org_id: orgId })) };
}

export const pintRoutes = [
  defineRoute({
    operationId: "exchangePint",
    method: "POST",
    path: "/v0/idsvc/token/pint",
    tag: "PINT",
    summary: "Exchange a signed mandate (PINT) for a PINT JWT (early access)",
    description: EXCHANGE_DESCRIPTION,
    security: ["ApiKey"],
    body: ExchangeBody,
    validateBody: false,
    bodyError: "PINT-400-001",
    rateLimitError: "PINT-429-001",
    bodyLimit: EXCHANGE_BODY_LIMIT,
    operation: `mutation ExchangePint($input: JSON) { exchange: exchange_pint(input: $input) { ${PINT_EXCHANGE_FIELDS} } }`,
    variables: ({ body }) => ({ input: body ?? null }),
    result: (data) => data.exchange,
    status: 201,
    links: (body, { base_url }) => ({
      jwks: link(href(base_url, "/.well-known/jwks.json"), { description: "keys that verify the token" }),
      user: link(href(base_url, "/v0/users/{sri}", { sri: body.pint.user_id }), { description: "the user, with x-platform-pint-token" }),
      introspect: link(href(base_url, "/v0/idsvc/token/pint"), { description: "the token's mandate, with x-platform-pint-token" }),
    }),
    responses: {
      201: {
        description: "The PINT JWT and its stored mandate",
        schema: withLinks(PintExchange),
      },
    },
    errors: ["IDS-403-001", "PINT-400-002", "PINT-401-001", "PINT-401-002", "PINT-403-001", "PINT-403-002", "PINT-409-001", "PINT-409-002", "PINT-410-001", "PINT-424-001"],
  }),
  defineRoute({
    operationId: "getCurrentPint",
    method: "GET",
    path: "/v0/idsvc/token/pint",
    tag: "PINT",
    summary: "The mandate behind the presented PINT JWT",
    description: PINT_TOKEN_USE,
    security: ["PintToken"],
    operation: `query CurrentPint { pint: current_pint { ${PINT_MANDATE_FIELDS} } }`,
    result: (data) => data.pint,
    links: (body, { base_url }) => ({
      self: link(href(base_url, "/v0/idsvc/token/pint")),
      user: link(href(base_url, "/v0/users/{sri}", { sri: body.user_id }), { description: "the mandate's user" }),
    }),
    responses: { 200: { description: "The mandate", schema: withLinks(PintMandate) } },
    errors: [],
  }),
  defineRoute({
    operationId: "getPintJwks",
    method: "GET",
    path: "/.well-known/jwks.json",
    tag: "PINT",
    summary: "Public keys that verify PINT JWTs",
    description: "The platform signing key's public part (RFC 7517), without credentials. Verify a PINT JWT with it, its `iss` ({sis_url}) and, as the audience, your organisation's `<org_id>:<identifier>`.",
    security: [],
    operation: `query PintJwks { jwks: pint_jwks { ${PINT_JWKS_FIELDS} } }`,
    result: (data) => data.jwks,
    responses: { 200: { description: "The JWKS", schema: PintJwks } },
    errors: [],
  }),
  defineRoute({
    operationId: "listPintAudiences",
    method: "GET",
    path: "/v0/organisation/{org_id}/audiences",
    tag: "PINT",
    summary: "The organisation's registered third-party identifiers (PINT audiences)",
    security: ["DashboardSession"],
    params: OrgId,
    operation: `query PintAudiences($org_id: ID!) { audiences: pint_audiences(org_id: $org_id) { ${PINT_AUDIENCE_FIELDS} } }`,
    variables: ({ params }) => ({ org_id: params.org_id }),
    result: (data) => ({ items: data.audiences }),
    links: (_body, { base_url, params }) => ({ self: link(href(base_url, "/v0/organisation/{org_id}/audiences", { org_id: params.org_id })) }),
    responses: { 200: { description: "The audiences", schema: Type.Object({ items: Type.Array(PintAudience), _links: Links }) } },
    errors: ["IDS-404-001"],
  }),
  defineRoute({
    operationId: "registerPintAudience",
    method: "POST",
    path: "/v0/organisation/{org_id}/audiences",
    tag: "PINT",
    summary: "Register a third-party identifier (PINT audience)",
    description:
      "Owners and admins (403 `IDS-403-003`). Identifiers look like `com.example.app` or `https://app.example.com` (3-200 characters: letters, digits, `. _ : / -`) and are **namespaced per organisation**: a mandate names the answer's `audience`, `<org_id>:<identifier>`, and the PINT JWT carries it as `aud`. Another organisation may register the same identifier, but its mandates name its own id, so it cannot capture yours: only this organisation's keys exchange mandates for this audience (others: 400 `PINT-400-002`), and a relying party that checks `aud` against its organisation's audience refuses tokens minted for the other. 409 `IDS-409-001` when this organisation already registered the identifier.",
    security: ["DashboardSession"],
    params: OrgId,
    body: RegisterPintAudienceInput,
    operation: `mutation RegisterPintAudience($org_id: ID!, $input: RegisterPintAudienceInput!) { audience: register_pint_audience(org_id: $org_id, input: $input) { ${PINT_AUDIENCE_FIELDS} } }`,
    variables: ({ params, body }) => ({ org_id: params.org_id, input: body }),
    result: (data) => data.audience,
    status: 201,
    links: (body, { base_url, params }) => ({
      remove: link(href(base_url, "/v0/organisation/{org_id}/audiences/{audience_id}", { org_id: params.org_id, audience_id: body.id }), { method: "DELETE" }),
      list: link(href(base_url, "/v0/organisation/{org_id}/audiences", { org_id: params.org_id })),
    }),
    responses: { 201: { description: "The audience", schema: withLinks(PintAudience) } },
    errors: ["IDS-403-003", "IDS-404-001", "IDS-409-001"],
  }),
  defineRoute({
    operationId: "removePintAudience",
    method: "DELETE",
    path: "/v0/organisation/{org_id}/audiences/{audience_id}",
    tag: "PINT",
    summary: "Remove an audience and revoke its mandates",
    description: "Owners and admins. Answers **204**. Every mandate exchanged for the identifier is revoked in the same transaction: their PINT JWTs fail from the next request on (401 `PINT-401-006`).",
    security: ["DashboardSession"],
    params: AudiencePath,
    operation: `mutation RemovePintAudience($org_id: ID!, $audience_id: ID!) { removed: remove_pint_audience(org_id: $org_id, audience_id: $audience_id) }`,
    variables: ({ params }) => ({ org_id: params.org_id, audience_id: params.audience_id }),
    result: () => undefined,
    status: 204,
    responses: { 204: { description: "Removed; its mandates are revoked" } },
    errors: ["IDS-403-003", "IDS-404-001"],
  }),
  defineRoute({
    operationId: "listOrganisationPints",
    method: "GET",
    path: "/v0/organisation/{org_id}/pints",
    tag: "PINT",
    summary: "Mandates exchanged for the organisation's audiences",
    description: "Newest first; `audience` filters by the mandates' audience (`<org_id>:<identifier>`).",
    security: ["DashboardSession"],
    params: OrgId,
    query: Type.Object({ audience: Type.Optional(Type.String({ minLength: 1 })), ...Page }),
    operation: `query OrganisationPints($org_id: ID!, $audience: String, $limit: Int, $offset: Int) { pints: organisation_pints(org_id: $org_id, audience: $audience, limit: $limit, offset: $offset) { ${PINT_MANDATE_FIELDS} } }`,
    variables: ({ params, query }) => ({ org_id: params.org_id, audience: query.audience ?? null, limit: query.limit ?? null, offset: query.offset ?? null }),
    result: (data) => ({ items: data.pints }),
    links: (_body, { base_url, params }) => ({ self: link(href(base_url, "/v0/organisation/{org_id}/pints", { org_id: params.org_id })) }),
    responses: { 200: { description: "The mandates", schema: Type.Object({ items: Type.Array(PintMandate), _links: Links }) } },
    errors: ["IDS-404-001"],
  }),
  defineRoute({
    operationId: "getOrganisationPint",
    method: "GET",
    path: "/v0/organisation/{org_id}/pints/{pint_id}",
    tag: "PINT",
    summary: "Read a mandate of the organisation's audiences",
    security: ["DashboardSession"],
    params: PintPath,
    operation: `query OrganisationPint($org_id: ID!, $pint_id: ID!) { pint: organisation_pint(org_id: $org_id, pint_id: $pint_id) { ${PINT_MANDATE_FIELDS} } }`,
    variables: ({ params }) => ({ org_id: params.org_id, pint_id: params.pint_id }),
    result: (data) => data.pint,
    links: (_body, { base_url, params }) => organisationPintLinks(base_url, params.org_id, params.pint_id),
    responses: { 200: { description: "The mandate", schema: withLinks(PintMandate) } },
    errors: ["IDS-404-001", "PINT-404-001"],
  }),
  defineRoute({
    operationId: "revokeOrganisationPint",
    method: "DELETE",
    path: "/v0/organisation/{org_id}/pints/{pint_id}",
    tag: "PINT",
    summary: "Revoke a mandate of the organisation's audiences",
    description:
      "Owners and admins (403 `IDS-403-003`). Immediate: the mandate's PINT JWT fails from the next request on (401 `PINT-401-006`) and the mandate cannot be exchanged again (409 `PINT-409-002`). Revoking twice answers the same. 404 `PINT-404-001` for a mandate of another organisation.",
    security: ["DashboardSession"],
    params: PintPath,
    operation: `mutation RevokeOrganisationPint($org_id: ID!, $pint_id: ID!) { pint: revoke_organisation_pint(org_id: $org_id, pint_id: $pint_id) { ${PINT_MANDATE_FIELDS} } }`,
    variables: ({ params }) => ({ org_id: params.org_id, pint_id: params.pint_id }),
    result: (data) => data.pint,
    links: (_body, { base_url, params }) => organisationPintLinks(base_url, params.org_id, params.pint_id),
    responses: { 200: { description: "The revoked mandate", schema: withLinks(PintMandate) } },
    errors: ["IDS-403-003", "IDS-404-001", "PINT-404-001"],
  }),
];
