import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { withLinks } from "../route-kit/schemas.ts";
import { SIWE_CHALLENGE_FIELDS, SIWE_SESSION_FIELDS, SiweChallenge, SiweSession, SiweVerifyInput } from "../resources/resources.generated.ts";

/** Sign-in with Ethereum (EIP-4361): the platform is the issuer; no credential needed. */


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
    operation: `mutation SiweNonce { challenge: siwe_nonce { ${SIWE_CHALLENGE_FIELDS} } }`,
    result: (data) => data.challenge,
    status: 201,
    links: (_body, { base_url }) => ({
      verify: link(href(base_url, "/v0/auth/siwe/verify"), { method: "POST", description: "send the signed message" }),
      jwks: link(href(base_url, "/.well-known/jwks.json"), { description: "keys that verify the session token" }),
    }),
    responses: { 201: { description: "A nonce and the message's required values", schema: withLinks(SiweChallenge) } },
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
    body: SiweVerifyInput,
    operation: `mutation SiweVerify($input: SiweVerifyInput!) { session: siwe_verify(input: $input) { ${SIWE_SESSION_FIELDS} } }`,
    variables: ({ body }) => ({ input: { message: body.message, signature: body.signature } }),
    result: (data) => data.session,
    links: (_body, { base_url }) => ({
      create_user: link(href(base_url, "/v0/user/"), { method: "POST", description: "register this address (first sign-in)" }),
      me: link(href(base_url, "/v0/user/me")),
      jwks: link(href(base_url, "/.well-known/jwks.json"), { description: "keys that verify the token" }),
    }),
    responses: { 200: { description: "The session token", schema: withLinks(SiweSession) } },
    errors: ["SIW-401-001", "SIW-401-002", "SIW-503-001", "CHN-502-001"],
  }),
];
