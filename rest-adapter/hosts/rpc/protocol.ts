// JSON-RPC 2.0 (https://www.jsonrpc.org/specification) as the RPC host speaks it: request
// validation, the plan of what is answered here and what is forwarded, and the answer put back
// together in the caller's order with the caller's ids.
import { JsonBodyError, parseJsonBody } from "../../../lib/json-body.ts";
import { isRecord } from "../../../lib/parse.ts";
import { classifyMethod } from "./methods.ts";

export type JsonRpcId = string | number | null;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcResponse {
  jsonrpc: "2.0";
  id: JsonRpcId;
  result?: unknown;
  error?: JsonRpcErrorObject;
}

/** A call as sent upstream: the caller's method and params under an id of ours. */
export interface UpstreamCall {
  jsonrpc: "2.0";
  id: number;
  method: string;
  params?: unknown;
}

/**
 * Error codes. -32700…-32603 are JSON-RPC 2.0's; -32002, -32004 and -32005 follow EIP-1474
 * (resource unavailable, method not supported, limit exceeded), as common providers do; -32001
 * is this host's access refusal (HTTP 401 or 403, `data.reason` says which).
 */
export const RPC_ERROR = Object.freeze({
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INTERNAL_ERROR: -32603,
  ACCESS_DENIED: -32001,
  RESOURCE_UNAVAILABLE: -32002,
  METHOD_NOT_SUPPORTED: -32004,
  LIMIT_EXCEEDED: -32005,
});

/** Calls per batch; a larger batch is refused whole (-32600, HTTP 400). */
export const MAX_BATCH_SIZE = 100;

export function errorResponse(id: JsonRpcId, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: { code, message, ...(data !== undefined && { data }) } };
}

function isId(value: unknown): value is JsonRpcId {
  return value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** What happens to one item of the request. */
export type CallPlan =
  /** answered here; `response` null for a notification (never answered, even when refused) */
  | { kind: "answered"; response: JsonRpcResponse | null }
  | { kind: "forward"; method: string; params: unknown; id: JsonRpcId; notification: boolean };

/** Validates one request object and decides: answer it here (invalid, refused) or forward it. */
export function planCall(item: unknown): CallPlan {
  if (!isRecord(item)) return { kind: "answered", response: errorResponse(null, RPC_ERROR.INVALID_REQUEST, "invalid request: expected a JSON-RPC request object") };
  const notification = !("id" in item);
  const id = notification ? null : item.id;
  if (!isId(id)) return { kind: "answered", response: errorResponse(null, RPC_ERROR.INVALID_REQUEST, "invalid request: id must be a string, a number or null") };
  const invalid = (why: string): CallPlan => ({ kind: "answered", response: errorResponse(id, RPC_ERROR.INVALID_REQUEST, `invalid request: ${why}`) });
  if (item.jsonrpc !== "2.0") return invalid('jsonrpc must be "2.0"');
  if (typeof item.method !== "string" || item.method === "") return invalid("method must be a non-empty string");
  if (item.params !== undefined && !Array.isArray(item.params) && !isRecord(item.params)) return invalid("params must be an array or an object");

  const verdict = classifyMethod(item.method);
  if (!verdict.allowed) {
    if (notification) return { kind: "answered", response: null };
    return verdict.kind === "refused"
      ? { kind: "answered", response: errorResponse(id, RPC_ERROR.METHOD_NOT_SUPPORTED, `method not supported: ${item.method}`, { reason: verdict.reason }) }
      : { kind: "answered", response: errorResponse(id, RPC_ERROR.METHOD_NOT_FOUND, `method not found: ${item.method}`, { reason: verdict.reason }) };
  }
  return { kind: "forward", method: item.method, params: item.params, id, notification };
}

/** The upstream calls of a plan, numbered 0…n-1 in order (callers' ids may repeat or be null). */
export function upstreamCalls(plans: readonly CallPlan[]): UpstreamCall[] {
  const calls: UpstreamCall[] = [];
  for (const plan of plans) {
    if (plan.kind !== "forward") continue;
    calls.push({ jsonrpc: "2.0", id: calls.length, method: plan.method, ...(plan.params !== undefined && { params: plan.params }) });
  }
  return calls;
}

/** How the upstream answered the forwarded calls: one outcome per call, by our id. */
export type UpstreamOutcome = { ok: true; responses: unknown } | { ok: false; error: JsonRpcErrorObject };

function sanitise(answer: unknown, callerId: JsonRpcId): JsonRpcResponse {
  if (isRecord(answer)) {
    const error = answer.error;
    if (isRecord(error) && Number.isInteger(error.code) && typeof error.message === "string")
      return errorResponse(callerId, error.code as number, error.message, error.data);
    if ("result" in answer && answer.error === undefined) return { jsonrpc: "2.0", id: callerId, result: answer.result };
  }
  return errorResponse(callerId, RPC_ERROR.INTERNAL_ERROR, "internal error: the upstream node answered with a malformed response");
}

/** Our id back out of an upstream answer (some nodes echo numbers as strings). */
function ourId(id: unknown): number | undefined {
  if (typeof id === "number" && Number.isInteger(id)) return id;
  if (typeof id === "string" && /^\d{1,9}$/.test(id)) return Number(id);
  return undefined;
}

/**
 * The answer to the caller: one response per non-notification item, in the caller's order with
 * the caller's ids. Upstream answers are matched by our ids; a call the upstream left unanswered
 * gets -32603; a whole-batch upstream error (one error object for the batch) answers every call.
 */
export function assemble(plans: readonly CallPlan[], outcome: UpstreamOutcome | undefined): JsonRpcResponse[] {
  const byId = new Map<number, unknown>();
  let batchError: JsonRpcErrorObject | undefined;
  if (outcome && !outcome.ok) batchError = outcome.error;
  else if (outcome?.ok) {
    const answers = Array.isArray(outcome.responses) ? outcome.responses : [outcome.responses];
    for (const answer of answers) {
      const id = isRecord(answer) ? ourId(answer.id) : undefined;
      if (id !== undefined && !byId.has(id)) byId.set(id, answer);
      else if (isRecord(answer) && answer.id === null && isRecord(answer.error) && answers.length === 1) batchError = sanitise(answer, null).error;
    }
  }
  const out: JsonRpcResponse[] = [];
  let next = 0;
  for (const plan of plans) {
    if (plan.kind === "answered") {
      if (plan.response) out.push(plan.response);
      continue;
    }
    const upstreamId = next++;
    if (plan.notification) continue;
    if (byId.has(upstreamId)) out.push(sanitise(byId.get(upstreamId), plan.id));
    else if (batchError) out.push(errorResponse(plan.id, batchError.code, batchError.message, batchError.data));
    else out.push(errorResponse(plan.id, RPC_ERROR.INTERNAL_ERROR, "internal error: the upstream node did not answer this call"));
  }
  return out;
}

export type ParsedBody = { ok: true; batch: false; item: unknown } | { ok: true; batch: true; items: unknown[] } | { ok: false; response: JsonRpcResponse };

/**
 * The body as JSON by every listener's rules (lib/json-body.ts; whatever its media type, but in
 * UTF-8): one request or a batch (an empty or oversized batch is refused whole).
 */
export function parseBody(bytes: Buffer, contentType: string | undefined): ParsedBody {
  let value: unknown;
  try {
    value = parseJsonBody(bytes, contentType);
  } catch (error) {
    if (!(error instanceof JsonBodyError)) throw error;
    return { ok: false, response: errorResponse(null, RPC_ERROR.PARSE_ERROR, `parse error: the body is not valid JSON (${error.message})`) };
  }
  if (!Array.isArray(value)) return { ok: true, batch: false, item: value };
  if (value.length === 0) return { ok: false, response: errorResponse(null, RPC_ERROR.INVALID_REQUEST, "invalid request: empty batch") };
  if (value.length > MAX_BATCH_SIZE)
    return { ok: false, response: errorResponse(null, RPC_ERROR.INVALID_REQUEST, `invalid request: a batch holds at most ${MAX_BATCH_SIZE} calls, got ${value.length}`) };
  return { ok: true, batch: true, items: value };
}
