import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route-kit/route.ts";
import { href, link, type Links as LinkMap } from "../route-kit/links.ts";
import { ApiKey, API_KEY_FIELDS, MintApiKeyInput } from "../resources/resources.generated.ts";
import { Links, withLinks } from "../route-kit/schemas.ts";

const OrgId = Type.Object({ org_id: Type.String({ minLength: 1 }) });
const KeyPath = Type.Object({ org_id: Type.String({ minLength: 1 }), key_id: Type.String({ minLength: 1 }) });

/** Spec 2.6: self, organisation, environment, revoke (DELETE), list; public keys also rpc_endpoint and rpc_docs. */
function keyLinks(context: { base_url: string; rpc_url: string }, key: { id: string; partition: string; meta: { org_id: string; env_id: string } }): LinkMap {
  const base = context.base_url;
  const self = href(base, "/v0/organisation/{org_id}/keys/{key_id}", { org_id: key.meta.org_id, key_id: key.id });
  return {
    self: link(self),
    organisation: link(href(base, "/v0/organisation/{org_id}", { org_id: key.meta.org_id })),
    environment: link(href(base, "/v0/organisation/{org_id}/environments/{env_id}", { org_id: key.meta.org_id, env_id: key.meta.env_id })),
    revoke: link(self, { method: "DELETE" }),
    list: link(href(base, "/v0/organisation/{org_id}/keys", { org_id: key.meta.org_id })),
    ...(key.partition === "public" && {
      rpc_endpoint: link(context.rpc_url, { description: "JSON-RPC 2.0 per chain: POST {rpc_url}/v0/rpc/{chain_id} with the key" }),
      rpc_docs: link(`${context.rpc_url}/openapi.json`, { description: "how to call the RPC host with this key" }),
    }),
  };
}

const SCOPES_DOC =
  "Scopes (spec 5.2): `idsvc.lookup`, `idsvc.get_details`, `idsvc.get_kyc`, `idsvc.token_exchange`, `idsvc.get_pints` (server partition) or `rpc.invoke` (public partition); one partition per key, fixed at mint.";

export const keyRoutes = [
  defineRoute({
    operationId: "getCurrentApiKey",
    method: "GET",
    path: "/v0/idsvc/key",
    tag: "API Keys",
    summary: "The API key making the request",
    description: "Any valid key (`Authorization: Bearer idsvc_…`), whatever its scopes: shows its id, partition, scopes and environment, never its secret. 401 `IDS-401-001` for a missing, unknown or revoked key.",
    security: ["ApiKey"],
    operation: `query CurrentApiKey { key: current_api_key { ${API_KEY_FIELDS} } }`,
    result: (data) => data.key,
    links: (body, context) => keyLinks(context, body),
    responses: { 200: { description: "The key", schema: withLinks(ApiKey) } },
    errors: [],
  }),
  defineRoute({
    operationId: "mintApiKey",
    method: "POST",
    path: "/v0/organisation/{org_id}/keys",
    tag: "API Keys",
    summary: "Mint an API key",
    description: `${SCOPES_DOC} The answer carries the plaintext \`key\` this once (\`idsvc_<sk|pk>_<live|test>_…\`); only its hash is stored. 422 \`IDS-422-006\` for empty, unknown or mixed scopes; 422 \`IDS-422-007\` when \`env_id\` is not an environment of the organisation; framework 422 when \`scopes\` or \`env_id\` is missing.`,
    security: ["DashboardSession"],
    params: OrgId,
    body: MintApiKeyInput,
    operation: `mutation MintApiKey($org_id: ID!, $input: MintApiKeyInput!) { key: mint_api_key(org_id: $org_id, input: $input) { ${API_KEY_FIELDS} key } }`,
    variables: ({ params, body }) => ({ org_id: params.org_id, input: body }),
    result: (data) => data.key,
    status: 201,
    links: (body, context) => keyLinks(context, body),
    responses: { 201: { description: "The key, with its secret shown this once", schema: withLinks(Type.Composite([ApiKey, Type.Object({ key: Type.String() })])) } },
    errors: ["IDS-403-003", "IDS-404-001", "IDS-422-006", "IDS-422-007"],
  }),
  defineRoute({
    operationId: "listApiKeys",
    method: "GET",
    path: "/v0/organisation/{org_id}/keys",
    tag: "API Keys",
    summary: "List the organisation's keys (never their secrets)",
    security: ["DashboardSession"],
    params: OrgId,
    operation: `query ApiKeys($org_id: ID!) { keys: api_keys(org_id: $org_id) { ${API_KEY_FIELDS} } }`,
    variables: ({ params }) => ({ org_id: params.org_id }),
    result: (data) => ({ items: data.keys }),
    links: (_body, { base_url, params }) => ({ self: link(href(base_url, "/v0/organisation/{org_id}/keys", { org_id: params.org_id })) }),
    responses: { 200: { description: "The keys", schema: Type.Object({ items: Type.Array(ApiKey), _links: Links }) } },
    errors: ["IDS-404-001"],
  }),
  defineRoute({
    operationId: "getApiKey",
    method: "GET",
    path: "/v0/organisation/{org_id}/keys/{key_id}",
    tag: "API Keys",
    summary: "Read one key (never its secret)",
    security: ["DashboardSession"],
    params: KeyPath,
    operation: `query ApiKey($org_id: ID!, $key_id: ID!) { key: api_key(org_id: $org_id, key_id: $key_id) { ${API_KEY_FIELDS} } }`,
    variables: ({ params }) => ({ org_id: params.org_id, key_id: params.key_id }),
    result: (data) => data.key,
    links: (body, context) => keyLinks(context, body),
    responses: { 200: { description: "The key", schema: withLinks(ApiKey) } },
    errors: ["IDS-404-001"],
  }),
  defineRoute({
    operationId: "revokeApiKey",
    method: "DELETE",
    path: "/v0/organisation/{org_id}/keys/{key_id}",
    tag: "API Keys",
    summary: "Revoke a key",
    description: "Takes effect on the next request. A key cannot change partition: revoke it and mint anew. Revoking twice answers the same.",
    security: ["DashboardSession"],
    params: KeyPath,
    operation: `mutation RevokeApiKey($org_id: ID!, $key_id: ID!) { key: revoke_api_key(org_id: $org_id, key_id: $key_id) { ${API_KEY_FIELDS} } }`,
    variables: ({ params }) => ({ org_id: params.org_id, key_id: params.key_id }),
    result: (data) => data.key,
    links: (body, context) => keyLinks(context, body),
    responses: { 200: { description: "The revoked key", schema: withLinks(ApiKey) } },
    errors: ["IDS-403-003", "IDS-404-001"],
  }),
];
