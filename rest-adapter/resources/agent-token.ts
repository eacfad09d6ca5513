import type { RestResource } from "../route-kit/resource-overlay.ts";
import { AGENT_TOKEN_SCOPES } from "../../lib/vocabulary/agents.ts";
import { MAX_AGENT_TOKEN_DAYS, MAX_AGENT_TOKEN_NAME_LENGTH, MAX_AGENT_TOKEN_WALLETS, DEFAULT_AGENT_TOKEN_DAYS, DEFAULT_AGENT_TOKEN_USES, MAX_ACTIVE_AGENT_TOKENS, MAX_AGENT_TOKEN_USES } from "../../lib/contracts/agent-tokens.ts";
import { Type } from "@sinclair/typebox";
import { href, link } from "../route-kit/links.ts";
import { defineRoute } from "../route-kit/route.ts";
import { Links, withLinks } from "../route-kit/schemas.ts";
import type * as Generated from "./resources.generated.ts";

/** An agent token in REST (spec 5.1.9), its secret only once at creation; written inline by its routes. Its body from CreateAgentTokenInput. */
export const resource = {
  type: "AgentToken",
  component: false,
  inputs: { CreateAgentTokenInput: "AgentToken" },
  types: {
    AgentToken: {
      fields: {
        id: { description: "agt_<id>" },
        scopes: { description: `Of ${AGENT_TOKEN_SCOPES.join(", ")}.` },
        last_used_at: { orNull: { description: "the instant of the latest request made with it" } },
      },
    },
    CreateAgentTokenInput: {
      fields: {
        name: { minLength: 1, maxLength: MAX_AGENT_TOKEN_NAME_LENGTH },
        scopes: { examples: [["read:transactions", "read:balances"]] },
        expires_in_days: { minimum: 1, maximum: MAX_AGENT_TOKEN_DAYS },
        wallet_ids: { minItems: 1, maxItems: MAX_AGENT_TOKEN_WALLETS, item: { minimum: 1 } },
      },
    },
  },
} satisfies RestResource;

const tokenHref = (base: string, id: string) => href(base, "/v0/agent/tokens/{token_id}", { token_id: id });

/** Agent tokens (spec 5.1.9 `x-platform-token`, scopes of spec 2.10): the user's JWT or PAT manages them, never an agent token. */
export const routes = ({ AGENT_TOKEN_FIELDS, AGENT_TOKEN_USE_FIELDS, AgentToken, AgentTokenUse, CreateAgentTokenInput }: typeof Generated) => [
  defineRoute({
    operationId: "createAgentToken",
    method: "POST",
    path: "/v0/agent/tokens",
    tag: "Agent",
    summary: "Issue an agent token",
    description:
      `For an AI agent to read your money through the AgentTool operations (REST, /graphql, MCP), and nothing else. The token (\`plat_agt_\` + 40 base62 characters + a 6-character CRC32 checksum) is returned once in \`token\`; only its SHA-256 hash is stored. Send it as \`x-platform-token\`, on its own. ` +
      `\`scopes\`: a non-empty subset of ${AGENT_TOKEN_SCOPES.map((s) => `\`${s}\``).join(", ")}; anything else is 422 \`AGT-422-001\`. A write scope does not include the matching read scope. Each AgentTool operation names the scope it needs (the AgentToken security requirement). ` +
      `It expires after \`expires_in_days\` (1-${MAX_AGENT_TOKEN_DAYS}, default ${DEFAULT_AGENT_TOKEN_DAYS}). ` +
      `You hold at most ${MAX_ACTIVE_AGENT_TOKENS} active (neither revoked nor expired) tokens; issuing another is 409 \`AGT-409-001\` until you revoke one. Each token's requests spend your own rate-limit budget (\`user\` rule) as well as the token's. ` +
      `\`wallet_ids\` (1-${MAX_AGENT_TOKEN_WALLETS} of your wallets; another user's is 404 \`WAL-404-001\`) restricts it to those wallets: it then reads their transactions (the feed narrowed to them), their balances and assets, and the asset catalogue; operations that span your whole account (accounts, cards, budgets, insights) answer 403 \`AGT-403-003\`. JWT, or a PAT with \`write\`.`,
    security: ["PlatformJwt", "PlatformPat"],
    body: CreateAgentTokenInput,
    operation: `mutation CreateAgentToken($input: CreateAgentTokenInput!) { token: create_agent_token(input: $input) { ${AGENT_TOKEN_FIELDS} token } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.token,
    status: 201,
    links: (body, { base_url }) => ({
      revoke: link(tokenHref(base_url, body.id), { method: "DELETE" }),
      uses: link(href(base_url, "/v0/agent/tokens/{token_id}/uses", { token_id: body.id })),
      list: link(href(base_url, "/v0/agent/tokens")),
    }),
    responses: { 201: { description: "The token, with its secret shown this once", schema: withLinks(Type.Composite([AgentToken, Type.Object({ token: Type.String() })])) } },
    errors: ["AGT-409-001", "AGT-422-001", "USR-403-001", "USR-404-001", "WAL-404-001"],
  }),
  defineRoute({
    operationId: "listAgentTokens",
    method: "GET",
    path: "/v0/agent/tokens",
    tag: "Agent",
    summary: "List your agent tokens (never their secrets)",
    description: "Newest first, revoked and expired ones included. JWT, or a PAT with `read`.",
    security: ["PlatformJwt", "PlatformPat"],
    operation: `query ListAgentTokens { tokens: agent_tokens { ${AGENT_TOKEN_FIELDS} } }`,
    result: (data) => ({ items: data.tokens }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/agent/tokens")) }),
    responses: { 200: { description: "The tokens", schema: Type.Object({ items: Type.Array(AgentToken), _links: Links }) } },
    errors: ["USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "revokeAgentToken",
    method: "DELETE",
    path: "/v0/agent/tokens/{token_id}",
    tag: "Agent",
    summary: "Revoke an agent token",
    description: "Takes effect on the token's next request (401 `USR-401-005`). Revoking a revoked token answers the same. Another user's token: 404 `AGT-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: Type.Object({ token_id: Type.String({ minLength: 1 }) }),
    operation: `mutation RevokeAgentToken($id: ID!) { token: revoke_agent_token(id: $id) { ${AGENT_TOKEN_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.token_id }),
    result: (data) => data.token,
    links: (body, { base_url }) => ({ uses: link(href(base_url, "/v0/agent/tokens/{token_id}/uses", { token_id: body.id })), list: link(href(base_url, "/v0/agent/tokens")) }),
    responses: { 200: { description: "The revoked token", schema: withLinks(AgentToken) } },
    errors: ["AGT-404-001", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "listAgentTokenUses",
    method: "GET",
    path: "/v0/agent/tokens/{token_id}/uses",
    tag: "Agent",
    summary: "The latest requests made with an agent token",
    description: `Newest first: the operation, its outcome and when. \`limit\` 1-${MAX_AGENT_TOKEN_USES}, default ${DEFAULT_AGENT_TOKEN_USES}. Another user's token: 404 \`AGT-404-001\`.`,
    security: ["PlatformJwt", "PlatformPat"],
    params: Type.Object({ token_id: Type.String({ minLength: 1 }) }),
    query: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_AGENT_TOKEN_USES })) }),
    operation: `query ListAgentTokenUses($token_id: ID!, $limit: Int) { uses: agent_token_uses(token_id: $token_id, limit: $limit) { ${AGENT_TOKEN_USE_FIELDS} } }`,
    variables: ({ params, query }) => ({ token_id: params.token_id, limit: query.limit ?? null }),
    result: (data) => ({ items: data.uses }),
    links: (_body, { base_url, params }) => ({ self: link(href(base_url, "/v0/agent/tokens/{token_id}/uses", { token_id: params.token_id })), token: link(tokenHref(base_url, params.token_id)) }),
    responses: { 200: { description: "The uses", schema: Type.Object({ items: Type.Array(AgentTokenUse), _links: Links }) } },
    errors: ["AGT-404-001", "USR-403-001", "USR-404-001"],
  }),
];
