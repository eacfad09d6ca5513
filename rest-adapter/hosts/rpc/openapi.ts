// `{rpc_url}/openapi.json`: what a public key's `rpc_docs` link points at.
import { MAX_JSON_DEPTH } from "../../../lib/json-body.ts";
import { buildOpenApiDocument, retryAfterHeader, type HeaderObject } from "../../route-kit/openapi.ts";
import { healthRoutes } from "../../routes/health.ts";
import { RPC_SCOPE } from "./auth.ts";
import { ALLOWED_METHODS, REFUSALS } from "./methods.ts";
import { MAX_BATCH_SIZE, RPC_ERROR } from "./protocol.ts";

export interface RpcOpenApiOptions {
  rpcUrl: string;
  chains: number[];
  rateLimit: { limit: number; windowMs: number };
  upstreamTimeoutMs: number;
}

const ERROR_TABLE = `| HTTP | code | when |
|---|---|---|
| 200 | upstream's own | the node's JSON-RPC error (e.g. execution reverted), passed through |
| 200 | ${RPC_ERROR.METHOD_NOT_FOUND} | the method is not on the allow-list; never forwarded |
| 200 | ${RPC_ERROR.METHOD_NOT_SUPPORTED} | a signing, administrative or filter method, refused explicitly (\`data.reason\` says why); never forwarded |
| 200 / 400 | ${RPC_ERROR.INVALID_REQUEST} | an invalid request object: answered in its batch slot (200), or alone (400) |
| 400 | ${RPC_ERROR.PARSE_ERROR} | the body is not JSON as every listener reads it (any media type, but UTF-8: a \`charset\` other than \`utf-8\`, a byte order mark, more than ${MAX_JSON_DEPTH} levels of nesting or a key repeated with another value in one object is refused; the message says which) |
| 400 | ${RPC_ERROR.INVALID_REQUEST} | an empty batch, or more than ${MAX_BATCH_SIZE} calls |
| 401 | ${RPC_ERROR.ACCESS_DENIED} | key missing, malformed, unknown or revoked (\`data.reason\`: \`missing_key\`, \`invalid_key\`) |
| 403 | ${RPC_ERROR.ACCESS_DENIED} | a server-partition key (\`server_key\`: revoke it if it was exposed), or a key without \`${RPC_SCOPE}\` (\`missing_scope\`) |
| 404 | ${RPC_ERROR.RESOURCE_UNAVAILABLE} | the chain is not served here (\`data.chains\` lists those that are) |
| 405 | ${RPC_ERROR.INVALID_REQUEST} | not POST |
| 413 | ${RPC_ERROR.INVALID_REQUEST} | the body is larger than 1 MiB |
| 429 | ${RPC_ERROR.LIMIT_EXCEEDED} | the key's rate limit, or too many failed key verifications from this address or with this key; wait the seconds in \`Retry-After\` (also \`data.retry_after_seconds\`) |
| 502 / 504 | ${RPC_ERROR.INTERNAL_ERROR} | the upstream node failed or timed out; every forwarded call of the request gets this error |
| 503 | ${RPC_ERROR.INTERNAL_ERROR} | the key could not be verified right now |
| 503 | ${RPC_ERROR.RESOURCE_UNAVAILABLE} | the host is overloaded (load shedding) or shutting down; retry after the seconds in \`Retry-After\` |`;

function description(options: RpcOpenApiOptions): string {
  return `JSON-RPC 2.0 per chain for browsers and mobile apps (spec section 1): calls are forwarded to the chain's node.

**Keys.** Only **public-partition** API keys carrying \`${RPC_SCOPE}\` (\`idsvc_pk_live_…\`, \`idsvc_pk_test_…\`, minted on the identity host) are accepted. Send the key as \`Authorization: Bearer idsvc_pk_…\` (preferred: it stays out of URLs and logs); where a transport cannot set headers, put it in the path instead: \`POST /v0/rpc/{chain_id}/{key}\` (public keys may be published, but a URL travels further than a header). Server keys (\`idsvc_sk_…\`) are refused with 403 and must never reach a browser. Revocation takes effect on the next request. Browsers may call from any origin (CORS; no cookies are used).

**Chains served:** ${options.chains.length ? options.chains.join(", ") : "none configured"}.

**Methods.** An explicit allow-list is forwarded: ${ALLOWED_METHODS.map((m) => `\`${m}\``).join(", ")}. Everything else is answered here and never forwarded: ${REFUSALS.map((r) => `${r.label} (${r.reason})`).join("; ")}; any other method is \`${RPC_ERROR.METHOD_NOT_FOUND}\`.

**Batches** of up to ${MAX_BATCH_SIZE} calls: every item is validated and answered on its own, in the order sent, with its own \`id\`; allowed items go to the node as one batch. Notifications (no \`id\`) are run when allowed but never answered; a request of notifications only is answered 204. An empty batch is one \`${RPC_ERROR.INVALID_REQUEST}\` error.

**Rate limit:** ${options.rateLimit.limit} calls per ${options.rateLimit.windowMs / 1000} s per key (a batch of N counts as N). Over it: 429, \`Retry-After\`, and nothing is forwarded. The node gets ${options.upstreamTimeoutMs / 1000} s to answer.

**Errors** are JSON-RPC error objects (\`{"jsonrpc": "2.0", "id": …, "error": {"code", "message", "data"}}\`, \`application/json\`), never problem details; \`x-request-id\` carries the trace id.

${ERROR_TABLE}`;
}

const schemas = {
  JsonRpcRequest: {
    type: "object",
    required: ["jsonrpc", "method"],
    properties: {
      jsonrpc: { const: "2.0" },
      id: { type: ["string", "number", "null"], description: "absent: a notification, run but not answered" },
      method: { type: "string", enum: [...ALLOWED_METHODS] },
      params: { type: ["array", "object"] },
    },
    examples: [{ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }],
  },
  JsonRpcError: {
    type: "object",
    required: ["code", "message"],
    properties: { code: { type: "integer" }, message: { type: "string" }, data: {} },
  },
  JsonRpcResponse: {
    type: "object",
    required: ["jsonrpc", "id"],
    properties: {
      jsonrpc: { const: "2.0" },
      id: { type: ["string", "number", "null"] },
      result: {},
      error: { $ref: "#/components/schemas/JsonRpcError" },
    },
    examples: [{ jsonrpc: "2.0", id: 1, result: "0x1b4" }],
  },
};

const json = (schema: unknown) => ({ "application/json": { schema } });
const single = { $ref: "#/components/schemas/JsonRpcResponse" };
const eitherRequest = { oneOf: [{ $ref: "#/components/schemas/JsonRpcRequest" }, { type: "array", minItems: 1, maxItems: MAX_BATCH_SIZE, items: { $ref: "#/components/schemas/JsonRpcRequest" } }] };
const eitherResponse = { oneOf: [single, { type: "array", items: single }] };

/** Retry-After on the host's own refusals (auth.ts, app.ts): every 429 and every 503 (lib/http.ts). */
const RETRY_AFTER: Partial<Record<number, HeaderObject>> = {
  429: retryAfterHeader(true, "Seconds to wait before retrying; also `data.retry_after_seconds`."),
  503: retryAfterHeader(true, "Seconds to wait before retrying; when the host is overloaded or shutting down also `data.retry_after_seconds`."),
};

function rpcOperation(options: RpcOpenApiOptions, withPathKey: boolean) {
  return {
    operationId: withPathKey ? "rpcWithKeyInPath" : "rpc",
    tags: ["JSON-RPC"],
    summary: withPathKey ? "JSON-RPC 2.0 call or batch, key in the path" : "JSON-RPC 2.0 call or batch",
    description: withPathKey
      ? "For transports that cannot set headers. Same as `POST /v0/rpc/{chain_id}`; an `Authorization` header, when also sent, must carry the same key."
      : "The key as `Authorization: Bearer idsvc_pk_…`. See the document's description for methods, batches, limits and errors.",
    parameters: [
      { name: "chain_id", in: "path", required: true, schema: { type: "integer", ...(options.chains.length && { enum: options.chains }) } },
      ...(withPathKey ? [{ name: "key", in: "path", required: true, description: "a public API key (`idsvc_pk_…`) with `rpc.invoke`", schema: { type: "string" } }] : []),
    ],
    requestBody: { required: true, content: json(eitherRequest) },
    responses: {
      200: { description: "The answer: one response object, or an array in the batch's order", content: json(eitherResponse) },
      204: { description: "Only notifications were sent" },
      ...Object.fromEntries(
        ([
          [400, "Parse error, invalid single request, empty or oversized batch"],
          [401, "Key missing, malformed, unknown or revoked"],
          [403, "Server key, or no rpc.invoke"],
          [404, "Chain not served"],
          [413, "Body too large"],
          [429, "Rate limited; see Retry-After"],
          [502, "Upstream node failed"],
          [503, "The key could not be verified right now, or the host is overloaded or shutting down (Retry-After)"],
          [504, "Upstream node timed out"],
        ] as const).map(([status, text]) => [
          status,
          { description: text, content: json(status === 502 || status === 504 ? eitherResponse : single), ...(RETRY_AFTER[status] && { headers: { "Retry-After": RETRY_AFTER[status] } }) },
        ]),
      ),
    },
    security: withPathKey ? [{}] : [{ PublicApiKey: [] }],
  };
}

export function buildRpcOpenApiDocument(options: RpcOpenApiOptions): Record<string, unknown> {
  const base = buildOpenApiDocument({ title: "RPC host", description: description(options), tags: ["JSON-RPC"], serverUrl: options.rpcUrl, routes: healthRoutes }) as {
    paths: Record<string, unknown>;
    components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  };
  return {
    ...base,
    paths: {
      "/v0/rpc/{chain_id}": { post: rpcOperation(options, false) },
      "/v0/rpc/{chain_id}/{key}": { post: rpcOperation(options, true) },
      ...base.paths,
    },
    components: {
      ...base.components,
      schemas: { ...base.components.schemas, ...schemas },
      securitySchemes: {
        ...base.components.securitySchemes,
        PublicApiKey: { type: "http", scheme: "bearer", bearerFormat: "idsvc_pk_<live|test>_…", description: `Public-partition API key with ${RPC_SCOPE}; server keys (idsvc_sk_…) are refused with 403` },
      },
    },
  };
}
