import { randomBytes } from "node:crypto";

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The request's correlation id: the W3C `traceparent` trace id when one arrives, else a sane
 * `x-request-id`, else a fresh one. It is logged, echoed in `x-request-id` and put in every
 * ProblemDetail's `trace_id`.
 */
export function traceIdFrom(headers: Record<string, string | string[] | undefined>): string {
  const first = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const traceparent = TRACEPARENT.exec(first("traceparent")?.trim().toLowerCase() ?? "");
  if (traceparent && !/^0+$/.test(traceparent[1]!)) return traceparent[1]!;
  const requestId = first("x-request-id")?.trim();
  if (requestId && REQUEST_ID.test(requestId)) return requestId;
  return freshTraceId();
}

// Fresh ids come from a pool of random bytes, filled 256 ids at a time: one call into the
// system's generator per request showed in the three-subgraph query's profile (issue 30)
const ID_BYTES = 16;
let pool = Buffer.alloc(0);
let offset = 0;

function freshTraceId(): string {
  if (offset === pool.length) {
    pool = randomBytes(ID_BYTES * 256);
    offset = 0;
  }
  offset += ID_BYTES;
  return pool.toString("hex", offset - ID_BYTES, offset);
}
