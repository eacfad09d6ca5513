// Who may call the RPC host (spec 1, 5.2): public-partition API keys carrying `rpc.invoke`. The
// key is verified by the gateway, through the GatewayClient in both run modes (credential mode
// "verify"), so revocation is immediate, the rules are the identity service's own, and the key
// spends the same budgets either way: failures count against `auth_failure`, a verified key only
// against the RPC host's own `rpc` rule (rpc/app.ts), never its `api_key` budget.
import { recordRateLimitRefusal } from "../../../lib/metrics.ts";
import type { CredentialHeaders } from "../../../lib/auth/credential-headers.ts";
import { isWellFormedApiKey, looksLikeApiKey, type KeyPartition } from "../../../lib/auth/api-key.ts";
import type { ApiKeyPrincipal, Principal } from "../../../lib/auth/principal.ts";
import { AppError } from "../../../lib/errors/app-error.ts";
import type { GatewayClient } from "../../route-kit/gateway-client.ts";
import { errorFromGraphQL } from "../../route-kit/graphql-errors.ts";
import { RPC_ERROR, errorResponse, type JsonRpcResponse } from "./protocol.ts";

export const RPC_SCOPE = "rpc.invoke";

/**
 * The principal behind `{authorization: "Bearer <key>"}`, or an AppError (401 for an unknown or
 * revoked key, 429 while failed verifications from this address or of this key are being slowed
 * down): gatewayKeyAuthenticator.
 */
export type RpcAuthenticate = (headers: CredentialHeaders, traceId: string, request: { clientAddress: string }) => Promise<Principal>;

/** A refusal of the whole request: HTTP status plus the JSON-RPC error object. */
export class RpcHttpError extends Error {
  constructor(
    readonly status: number,
    readonly response: JsonRpcResponse,
    readonly headers: Record<string, string> = {},
  ) {
    super(response.error?.message ?? "refused");
    this.name = "RpcHttpError";
  }
}

export function refuse(status: number, code: number, message: string, data?: unknown, headers?: Record<string, string>): RpcHttpError {
  return new RpcHttpError(status, errorResponse(null, code, message, data), headers);
}

const unauthorized = (message: string, reason: string) => refuse(401, RPC_ERROR.ACCESS_DENIED, message, { reason });

/**
 * The key of a request: `Authorization: Bearer <key>` (preferred) or the path segment after the
 * chain id, for transports that cannot set headers. Both at once must agree.
 */
export function keyOf(authorization: string | string[] | undefined, pathKey: string | undefined): string {
  const header = Array.isArray(authorization) ? authorization[0] : authorization;
  let fromHeader: string | undefined;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (!match) throw unauthorized("unauthorized: send the key as Authorization: Bearer idsvc_pk_…", "invalid_key");
    fromHeader = match[1];
  }
  if (fromHeader !== undefined && pathKey !== undefined && fromHeader !== pathKey)
    throw unauthorized("unauthorized: the Authorization header and the path carry different keys; send one", "invalid_key");
  const key = fromHeader ?? pathKey;
  if (key === undefined) throw unauthorized("unauthorized: an API key is required (Authorization: Bearer idsvc_pk_…)", "missing_key");
  if (!looksLikeApiKey(key) || !isWellFormedApiKey(key)) throw unauthorized("unauthorized: not an API key of this service (idsvc_pk_…)", "invalid_key");
  return key;
}

/**
 * The RPC host's 429: `-32005` with Retry-After, nothing forwarded. `rule`: the limit that
 * refused, counted in the metrics; unset when the refusal was counted where it was made.
 */
export function limitExceeded(retryAfterSeconds: number, message: string, rule?: string): RpcHttpError {
  if (rule) recordRateLimitRefusal(rule);
  const seconds = Math.max(1, retryAfterSeconds);
  return refuse(429, RPC_ERROR.LIMIT_EXCEEDED, `limit exceeded: ${message}; retry after ${seconds} s`, { retry_after_seconds: seconds }, { "retry-after": String(seconds) });
}

/** Verifies the key and checks partition and scope: 401, 403, 429 (failing too often), or the key's principal. */
export async function authorise(authenticate: RpcAuthenticate, key: string, traceId: string, clientAddress: string): Promise<ApiKeyPrincipal> {
  let principal: Principal;
  try {
    principal = await authenticate({ authorization: `Bearer ${key}` }, traceId, { clientAddress });
  } catch (error) {
    if (error instanceof AppError && error.status === 401) throw unauthorized("unauthorized: the API key is unknown or revoked", "invalid_key");
    if (error instanceof AppError && error.status === 429) throw limitExceeded(error.retryAfter ?? 1, "too many failed key verifications from this address or with this key");
    throw Object.assign(refuse(503, RPC_ERROR.INTERNAL_ERROR, "internal error: the API key could not be verified right now; retry"), { cause: error });
  }
  if (principal.kind !== "api_key") throw unauthorized("unauthorized: the RPC host accepts public API keys only", "invalid_key");
  if (principal.partition !== "public")
    throw refuse(403, RPC_ERROR.ACCESS_DENIED, "forbidden: server keys must never be used from the RPC host (they must never reach a browser); revoke this key if it was exposed and use a public key with rpc.invoke", {
      reason: "server_key",
    });
  if (!principal.scopes.includes(RPC_SCOPE)) throw refuse(403, RPC_ERROR.ACCESS_DENIED, `forbidden: the key does not carry the scope ${RPC_SCOPE}`, { reason: "missing_scope" });
  return principal;
}

const CURRENT_API_KEY = "query RpcHostKey { key: current_api_key { id partition scopes meta { org_id env_id } } }";

interface CurrentKey {
  id: string;
  partition: KeyPartition;
  scopes: string[];
  meta: { org_id: string; env_id: string };
}

/**
 * Asks the gateway, in both run modes: the Bearer header goes with `current_api_key` in
 * credential mode "verify" (401 for unknown or revoked keys before running anything, failures
 * counted, the key's own `api_key` budget untouched), and `current_api_key` names the key, its
 * partition and scopes.
 */
export function gatewayKeyAuthenticator(gateway: GatewayClient): RpcAuthenticate {
  const operation = gateway.prepare(CURRENT_API_KEY);
  return async (headers, traceId, { clientAddress }) => {
    const result = await gateway.execute({ operation, variables: {}, headers, credentials: "verify", trace_id: traceId, client_address: clientAddress });
    if (result.errors?.length) throw errorFromGraphQL(result.errors);
    const key = (result.data as { key: CurrentKey }).key;
    return { kind: "api_key", key_id: key.id, org_id: key.meta.org_id, env_id: key.meta.env_id, partition: key.partition, scopes: key.scopes };
  };
}
