// Where an internal listener remembers the signed principals it accepted (internal-principal.ts),
// so each is accepted once: in this process's memory when no other process can see the same
// principals (embedded PGlite: the database, and so the service, has one process), in the
// `internal` schema of PostgreSQL when it can (replicas of a service behind one address share its
// database: a principal one replica accepted is refused by every other).
import type { Database, Queryable } from "../db/queryable.ts";
import { applyMigrations } from "../db/migrations.ts";
import { untraced } from "../tracing.ts";

export interface ReplayStore {
  /**
   * True the first time `jti` is offered (it is then remembered until `expiresAt`, epoch ms),
   * false ever after; rejects when the store cannot tell. `now`: the verifier's clock.
   */
  firstUse(jti: string, expiresAt: number, now: number): Promise<boolean>;
  close?(): Promise<void>;
}

/** One process's memory: enough where the service has one process. */
export class MemoryReplayStore implements ReplayStore {
  /** jti → when it stops being acceptable anyway; insertion order is (nearly) expiry order */
  private readonly seen = new Map<string, number>();

  async firstUse(jti: string, expiresAt: number, now: number): Promise<boolean> {
    for (const [old, expiry] of this.seen) {
      if (expiry >= now) break;
      this.seen.delete(old);
    }
    if (this.seen.has(jti)) return false;
    this.seen.set(jti, expiresAt);
    return true;
  }
}

// $1 the jtis, $2 their expiries (epoch ms); the inserted ones come back, a jti already there does not.
const INSERT_SQL = `INSERT INTO "internal"."principal_uses" (jti, expires_at)
SELECT jti, to_timestamp(expires_ms / 1000.0) FROM unnest($1::text[], $2::float8[]) AS u(jti, expires_ms)
ON CONFLICT (jti) DO NOTHING RETURNING jti`;

// Kept a minute past their expiry: a verifier whose clock is behind the database's must still find
// a principal it would accept. $1 the batch size.
const PRUNE_SQL = `WITH gone AS (
  DELETE FROM "internal"."principal_uses" WHERE jti IN (
    SELECT jti FROM "internal"."principal_uses" WHERE expires_at < now() - interval '1 minute' LIMIT $1::int)
  RETURNING 1)
SELECT count(*)::int AS deleted FROM gone`;

interface Pending {
  jti: string;
  expiresAt: number;
  resolve(first: boolean): void;
  reject(error: unknown): void;
}

export interface PostgresReplayStoreOptions {
  /** migrated with the `internal` set */
  database: Queryable;
  /** how often expired rows are deleted (default 30 s; 0: only by prune()) */
  pruneIntervalMs?: number;
  /** rows deleted per statement at most (default 10,000) */
  pruneBatchSize?: number;
}

/**
 * internal.principal_uses, one row per accepted principal: an INSERT … ON CONFLICT DO NOTHING
 * whose RETURNING says whether it was new. The checks waiting at one moment (those of the requests
 * read in one turn of the event loop) go in one statement, so under load a request costs less than
 * one statement. Expired rows are deleted in the background.
 */
export class PostgresReplayStore implements ReplayStore {
  private readonly database: Queryable;
  private readonly pruneBatchSize: number;
  private pending: Pending[] = [];
  private readonly timer?: NodeJS.Timeout;

  constructor(options: PostgresReplayStoreOptions) {
    this.database = options.database;
    this.pruneBatchSize = options.pruneBatchSize ?? 10_000;
    const interval = options.pruneIntervalMs ?? 30_000;
    // a background task: no span of its own, nor in whichever request's trace is current (lib/tracing.ts)
    if (interval > 0) this.timer = setInterval(() => void untraced(() => this.prune()).catch(() => undefined), interval).unref();
  }

  firstUse(jti: string, expiresAt: number): Promise<boolean> {
    return new Promise((resolve, reject) => {
      if (this.pending.push({ jti, expiresAt, resolve, reject }) === 1) setImmediate(() => void this.flush());
    });
  }

  /** Deletes up to one batch of rows past their expiry; returns how many. */
  async prune(): Promise<number> {
    const [row] = await this.database.query<{ deleted: number }>(PRUNE_SQL, [this.pruneBatchSize]);
    return Number(row?.deleted ?? 0);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    // one row per jti: the statement would report a jti offered twice in it as new for both
    const offered = new Map<string, number>();
    for (const { jti, expiresAt } of batch) if (!offered.has(jti)) offered.set(jti, expiresAt);
    try {
      const rows = await this.database.query<{ jti: string }>(INSERT_SQL, [[...offered.keys()], [...offered.values()]]);
      const inserted = new Set(rows.map((row) => row.jti));
      // the first asker of an inserted jti got it; a second in the same batch is a replay
      for (const waiter of batch) waiter.resolve(inserted.delete(waiter.jti));
    } catch (error) {
      for (const waiter of batch) waiter.reject(error);
    }
  }
}

/**
 * The store for a service's internal listener: shared through `database` when that is PostgreSQL
 * (its `internal` migration set applied here), this process's memory on PGlite or without one.
 */
export async function replayStoreFor(database: Database | undefined): Promise<ReplayStore> {
  if (database?.kind !== "postgres") return new MemoryReplayStore();
  await applyMigrations(database, ["internal"]);
  return new PostgresReplayStore({ database });
}
