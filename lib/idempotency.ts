import { createHash } from "node:crypto";
import { validationError } from "./errors/app-error.ts";

// The Idempotency-Key of money-moving POSTs, shared by the REST adapter (which reads and documents
// the header) and the finance subgraph (which stores the first response per user and key).

export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Visible ASCII without spaces: a UUID, a ULID or any opaque token of the client's. */
export const IDEMPOTENCY_KEY_PATTERN = "^[\\x21-\\x7E]{1,255}$";
/** The `idempotency_key` argument of the GraphQL writes that honour it, as the schema describes it. */
export const IDEMPOTENCY_KEY_ARG = "The Idempotency-Key: a retry with the same key and arguments answers the first response without writing twice; the same key with other arguments is TXN-422-001. Kept per user for 24 hours.";

/** How long a key answers with its first response; afterwards the same key starts a new request. */
export const IDEMPOTENCY_KEY_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Keys created at or before this instant no longer answer: their key starts afresh, and the row may be pruned. */
export function idempotencyKeyCutoff(now: Date = new Date()): Date {
  return new Date(now.getTime() - IDEMPOTENCY_KEY_RETENTION_MS);
}

/** The key itself, or a GEN-422-001 item at `loc` (the adapter's header.Idempotency-Key, a GraphQL write's idempotency_key). */
export function requireIdempotencyKey(value: unknown, loc: (string | number)[]): string {
  if (typeof value !== "string" || !new RegExp(IDEMPOTENCY_KEY_PATTERN).test(value))
    throw validationError(loc, `Input should be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters without spaces`, value, "string_pattern_mismatch", {
      pattern: IDEMPOTENCY_KEY_PATTERN,
    });
  return value;
}

/** JSON with object keys sorted at every depth, so `{a, b}` and `{b, a}` are one request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * What identifies a request under one key: SHA-256 (hex) of the operation's name and its arguments
 * as canonical JSON. Key order and absent optional fields do not matter; any value does, and the
 * same arguments sent to another operation are another request.
 */
export function idempotencyRequestHash(operation: string, args: unknown): string {
  return createHash("sha256").update(canonicalJson({ operation, args })).digest("hex");
}
