import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { EpochMs, Links } from "../route-kit/schemas.ts";

/** Sign-in with Ethereum (EIP-4361): the platform is the issuer; no credential needed. */

const CHALLENGE_FIELDS = "nonce expires_at domain uri scheme version chain_ids statement";
const SESSION_FIELDS = "token token_type expires_at address chain_id";

const MESSAGE_FORMAT = [
  "The message is EIP-4361 text, signed with EIP-191 `personal_sign` (viem: `createSiweMessage`, then `signMessage`):",
  "",
  "```",
  "{domain} wants you to sign in with your Ethereum account:",
  "{address}",
  "",
  "{statement}",
  "",
  "URI: {uri}",
  "Version: 1",
  "Chain ID: {chain_id}",
  "Nonce: {nonce}",
  "Issued At: {RFC 3339 date-time}",
  "Expiration Time: {optional}",
  "Not Before: {optional}",
  "Request ID: {optional}",
  "Resources:",
  "- {optional URIs}",
  "```",
].join("\n");

const ChallengeBody = Type.Object({
  nonce: Type.String({ description: "32 hex characters (128 random bits); the message's Nonce line", examples: ["9f86d081884c7d659a2feaa0c55ad015"] }),
  expires_at: EpochMs,
  domain: Type.String({ description: "host[:port] of the platform's public URL: the message's domain must be exactly this", examples: ["api.example.com"] }),
  uri: Type.String({ description: "suggested URI line (the platform's public URL); not checked" }),
  scheme: Type.String({ description: "a message that names a scheme before the domain must name this one" }),
  version: Type.Literal("1"),
  chain_ids: Type.Array(Type.Integer(), { description: "chain ids a message may name" }),
  statement: Type.String({ description: "suggested statement; not checked" }),
  _links: Links,
});

const SessionBody = Type.Object({
  token: Type.String({ description: "JWT for x-platform-jwt: iss the siwe provider's issuer, sub the checksummed address, aud the provider's audience if configured, chain_id" }),
  token_type: Type.Literal("JWT"),
  expires_at: EpochMs,
  address: Type.String({ description: "checksummed address that signed in (the token's sub, the user's auth_provider_id)" }),
  chain_id: Type.Integer(),
  _links: Links,
});

export const siweRoutes = [
  defineRoute({
    operationId: "createSiweNonce",
    method: "POST",
    path: "/v0/auth/siwe/nonce",
    tag: "Auth",
    summary: "Start sign-in with Ethereum: get a nonce",
    description: [
      "Step 1 of sign-in with Ethereum (EIP-4361). No credential and no body. Answers a fresh nonce, valid for 10 minutes and for one successful sign-in, with the values the message must carry: `domain` (exactly), `chain_ids` (one of), `version` 1; `uri` and `statement` are suggestions.",
      "",
      "Step 2: build the message, have the wallet sign it, and send both to `POST /v0/auth/siwe/verify`.",
      "",
      MESSAGE_FORMAT,
      "",
      "503 `SIW-503-001` when the deployment has no `siwe` entry in AUTH_PROVIDERS.",
    ].join("\n"),
    security: [],
    operation: `mutation SiweNonce { challenge: siwe_nonce { ${CHALLENGE_FIELDS} } }`,
    result: (data) => data.challenge,
    status: 201,
    links: (_body, { base_url }) => ({
      verify: link(href(base_url, "/v0/auth/siwe/verify"), { method: "POST", description: "send the signed message" }),
      jwks: link(href(base_url, "/.well-known/jwks.json"), { description: "keys that verify the session token" }),
    }),
    responses: { 201: { description: "A nonce and the message's required values", schema: ChallengeBody } },
    errors: ["SIW-503-001"],
  }),
  defineRoute({
    operationId: "verifySiweMessage",
    method: "POST",
    path: "/v0/auth/siwe/verify",
    tag: "Auth",
    summary: "Finish sign-in with Ethereum: exchange a signed message for a JWT",
    description: [
      "Step 2 of sign-in with Ethereum. `message` is the EIP-4361 message exactly as signed, `signature` its 0x-hex signature.",
      "",
      MESSAGE_FORMAT,
      "",
      "Checked in order: the message parses and names this service's `domain` (and its scheme, if it names one), Version 1, a supported Chain ID, `Issued At` not more than 60 s in the future, `Expiration Time` not passed, `Not Before` reached; the nonce was issued here, is unexpired and unused; the signature is valid. An EOA's ECDSA signature needs nothing more. A smart account's signature is checked on the message's chain through that chain's RPC (`CHAIN_RPC_URLS`): ERC-1271 `isValidSignature` when deployed, ERC-6492 (signature wrapping the factory call) when not yet deployed. The nonce is consumed only by a successful sign-in, atomically: of concurrent requests with one message exactly one succeeds.",
      "",
      "The answer's `token` is a JWT signed with the platform key (public keys at `/.well-known/jwks.json`), valid for one hour or until the message's Expiration Time if sooner. Send it as `x-platform-jwt`; a first-time address then registers with `POST /v0/user/` (its `auth_provider` is `siwe`, `auth_provider_id` the address).",
      "",
      "Errors: 401 `SIW-401-001` message or signature invalid (the detail names the rule; also a smart-account signature on a chain with no RPC configured); 401 `SIW-401-002` nonce unknown, expired or used (get a new nonce and sign again); 502 `CHN-502-001` the chain's RPC did not answer (retry the same request; the nonce is not consumed); 503 `SIW-503-001` sign-in with Ethereum is not enabled; 422 malformed body.",
    ].join("\n"),
    security: [],
    body: Type.Object({
      message: Type.String({ minLength: 1, maxLength: 8192, description: "the EIP-4361 message exactly as signed" }),
      signature: Type.String({ pattern: "^0x([0-9a-fA-F]{2})+$", maxLength: 32768, description: "0x-hex signature: 65-byte ECDSA, or ERC-1271 / ERC-6492 bytes for smart accounts" }),
    }),
    operation: `mutation SiweVerify($input: SiweVerifyInput!) { session: siwe_verify(input: $input) { ${SESSION_FIELDS} } }`,
    variables: ({ body }) => ({ input: { message: body.message, signature: body.signature } }),
    result: (data) => data.session,
    links: (_body, { base_url }) => ({
      create_user: link(href(base_url, "/v0/user/"), { method: "POST", description: "register this address (first sign-in)" }),
      me: link(href(base_url, "/v0/user/me")),
      jwks: link(href(base_url, "/.well-known/jwks.json"), { description: "keys that verify the token" }),
    }),
    responses: { 200: { description: "The session token", schema: SessionBody } },
    errors: ["SIW-401-001", "SIW-401-002", "SIW-503-001", "CHN-502-001"],
  }),
];
