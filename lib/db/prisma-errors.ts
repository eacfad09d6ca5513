/** Prisma's unique-constraint violation (P2002), the signal of a lost race on an insert. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/**
 * PostgreSQL SQLSTATEs of a server that is away or too slow: connection exceptions (08…), shutting
 * down or starting (57P01-03), out of connections (53300), and our deadlines passing
 * (lib/db/database-timeouts.ts): statement_timeout (57014), lock_timeout (55P03),
 * idle_in_transaction_session_timeout (25P03).
 */
const UNAVAILABLE_SQLSTATE = /^(08\w{3}|57P0[123]|53300|57014|55P03|25P03)$/;
/** Prisma driver adapters' kinds of a server that is away (adapter-pg maps ECONNRESET to ConnectionClosed, ETIMEDOUT to SocketTimeout). */
const UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/**
 * The same in the words drivers use when there is no SQLSTATE: pg (its query_timeout passing
 * included, and its connectionTimeoutMillis: "timeout expired", a connection the statement
 * pipeline opens to a frozen server), Prisma's driver adapters and transactions (one that could
 * not start within its maxWait, or outlived its timeout), Node's sockets.
 */
const UNAVAILABLE_TEXT =
  /Code: `(08\w{3}|57P0[123]|53300|57014|55P03|25P03)`|ECONNREFUSED|ECONNRESET|EPIPE|Connection terminated|connection error|is not queryable|Query read timeout|timeout expired|Can't reach database server|timeout exceeded when trying to connect|the database system is (starting up|shutting down)|DatabaseNotReachable|ConnectionClosed|Server has closed the connection|Unable to start a transaction in the given time|cannot be executed on an expired transaction/;

/**
 * Whether `test` holds for the error or anything it wraps: drivers and the gateway wrap what the
 * socket or the server said in `cause` and GraphQL's `originalError`.
 */
function inErrorChain(error: unknown, test: (error: { code?: unknown; message?: unknown; kind?: unknown }) => boolean): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    if (test(current as { code?: unknown; message?: unknown; kind?: unknown })) return true;
    const next = current as { cause?: unknown; originalError?: unknown };
    current = next.originalError ?? next.cause;
  }
  return false;
}

/** A failure because the database cannot be reached or did not answer in time, not because of the request: the caller gets 503 GEN-503-001 (retry), never a 500. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return inErrorChain(
    error,
    ({ code, message, kind }) =>
      (typeof code === "string" && (UNAVAILABLE_SQLSTATE.test(code) || /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT)$/.test(code))) ||
      (typeof kind === "string" && UNAVAILABLE_KINDS.has(kind)) ||
      (typeof message === "string" && UNAVAILABLE_TEXT.test(message)),
  );
}

/** PostgreSQL refusing text it cannot store (22021: a NUL character): the caller's input, a 422. */
export function isUnstorableText(error: unknown): boolean {
  return inErrorChain(error, ({ message }) => typeof message === "string" && /Code: `22021`|invalid byte sequence for encoding/.test(message));
}
