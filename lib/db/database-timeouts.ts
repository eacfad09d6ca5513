// Deadlines of every PostgreSQL call (lib/db/database.ts), so a database that is away, overloaded
// or frozen makes requests answer 503 in bounded time instead of hanging:
//
//   DATABASE_CONNECT_TIMEOUT_MS     opening a connection, or waiting for a free one of the pool's.
//                                   Default 5000.
//   DATABASE_STATEMENT_TIMEOUT_MS   a statement: PostgreSQL cancels it (statement_timeout), and the
//                                   process stops waiting STATEMENT_GRACE_MS later, since a frozen
//                                   server cancels nothing; that connection is then closed. Default 5000.
//   DATABASE_LOCK_TIMEOUT_MS        a statement waiting for a lock (lock_timeout). Default 2000.
//
// Schema migrations run without them (Database.transaction's `unbounded`). PGlite, which lives in
// the process, has none.
import { ConfigError } from "../config-error.ts";
import { envText, type Env } from "../parse.ts";

export interface DatabaseTimeouts {
  connectMs: number;
  statementMs: number;
  lockMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { connectMs: 5_000, statementMs: 5_000, lockMs: 2_000 };

/** How much longer than the server's statement_timeout the process waits for an answer: the server's own cancel, which keeps the connection, comes first. */
export const STATEMENT_GRACE_MS = 1_000;

/** A day: setTimeout takes at most 2^31 − 1 ms, and no database call should wait longer. */
const MAX_TIMEOUT_MS = 86_400_000;

function milliseconds(env: Env, name: string, fallback: number): number {
  const raw = envText(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) throw new ConfigError(name, `expected milliseconds from 1 to ${MAX_TIMEOUT_MS}, got "${raw}"`);
  return value;
}

export function loadDatabaseTimeouts(env: Env): DatabaseTimeouts {
  return {
    connectMs: milliseconds(env, "DATABASE_CONNECT_TIMEOUT_MS", DEFAULT_DATABASE_TIMEOUTS.connectMs),
    statementMs: milliseconds(env, "DATABASE_STATEMENT_TIMEOUT_MS", DEFAULT_DATABASE_TIMEOUTS.statementMs),
    lockMs: milliseconds(env, "DATABASE_LOCK_TIMEOUT_MS", DEFAULT_DATABASE_TIMEOUTS.lockMs),
  };
}
