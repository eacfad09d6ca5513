// The shared limiter: fixed windows (see rate-limiter.ts) in ratelimit.buckets
// (prisma/ratelimit), one row per key, so every instance on the same database shares each
// budget. Each consume is ONE statement, an INSERT … ON CONFLICT DO UPDATE: PostgreSQL takes the
// row lock for it, so concurrent consumes of a key, from any connection or process, apply one
// after the other to the latest row and the limit is exact. Works on PGlite too (one connection,
// trivially serial). Rows of ended windows are deleted now and then by the instance's consumes.
import type { Queryable } from "../db/database.ts";
import { checkConsumeArguments, decision, type RateLimitDecision, type RateLimitRule, type RateLimiter } from "./rate-limiter.ts";

export interface PostgresRateLimiterOptions {
  /** the process's Database (lib/db/database.ts), migrated with the `ratelimit` migration set */
  database: Queryable;
  /**
   * Milliseconds since the epoch, for tests. By default the DATABASE's clock is used, so
   * instances whose clocks disagree still agree on every window.
   */
  clock?: () => number;
  /** how often (per instance) rows of ended windows are deleted; default one minute */
  cleanupIntervalMs?: number;
  /** rows deleted per cleanup at most; a full batch makes the next consume clean up again */
  cleanupBatchSize?: number;
}

// $1 key, $2 cost, $3 limit, $4 now (null: the database's clock), $5 windowMs.
// In DO UPDATE, `b` is the row as it was and EXCLUDED the row a fresh window would insert, so
// EXCLUDED.window_start is this statement's "now". Comparisons in bigint: count + cost may pass
// the int range. A refused consume leaves `count` alone and records last_allowed = false.
const CONSUME_SQL = `
WITH clock AS (
  SELECT COALESCE($4::timestamptz, date_trunc('milliseconds', clock_timestamp())) AS now
), upsert AS (
  INSERT INTO "ratelimit"."buckets" AS b (key, count, window_start, expires_at, last_allowed)
  SELECT $1::text,
         CASE WHEN $2::bigint <= $3::bigint THEN $2::bigint ELSE 0 END,
         clock.now,
         clock.now + $5::float8 * interval '1 millisecond',
         $2::bigint <= $3::bigint
  FROM clock
  ON CONFLICT (key) DO UPDATE SET
    count = CASE
      WHEN b.expires_at <= EXCLUDED.window_start THEN EXCLUDED.count
      WHEN b.count::bigint + $2::bigint <= $3::bigint THEN b.count::bigint + $2::bigint
      ELSE b.count END,
    last_allowed = CASE
      WHEN b.expires_at <= EXCLUDED.window_start THEN EXCLUDED.last_allowed
      ELSE b.count::bigint + $2::bigint <= $3::bigint END,
    window_start = CASE WHEN b.expires_at <= EXCLUDED.window_start THEN EXCLUDED.window_start ELSE b.window_start END,
    expires_at = CASE WHEN b.expires_at <= EXCLUDED.window_start THEN EXCLUDED.expires_at ELSE b.expires_at END
  RETURNING b.count, b.last_allowed, b.expires_at
)
SELECT upsert.count AS count,
       upsert.last_allowed AS allowed,
       (extract(epoch FROM upsert.expires_at) * 1000)::float8 AS reset_at_ms,
       (extract(epoch FROM clock.now) * 1000)::float8 AS now_ms
FROM upsert, clock`;

// A row whose window has ended holds nothing: deleting it while a consume of the same key runs
// is harmless (the consume either restarts the row's window, which the DELETE's re-check then
// spares, or inserts a fresh one).
const CLEANUP_SQL = `
WITH expired AS (
  DELETE FROM "ratelimit"."buckets"
  WHERE key IN (
    SELECT key FROM "ratelimit"."buckets"
    WHERE expires_at <= COALESCE($1::timestamptz, clock_timestamp())
    LIMIT $2::int
  )
  AND expires_at <= COALESCE($1::timestamptz, clock_timestamp())
  RETURNING 1
)
SELECT count(*)::int AS deleted FROM expired`;

interface ConsumeRow {
  count: number;
  allowed: boolean;
  reset_at_ms: number;
  now_ms: number;
}

export class PostgresRateLimiter implements RateLimiter {
  private readonly database: Queryable;
  private readonly clock?: () => number;
  private readonly cleanupIntervalMs: number;
  private readonly cleanupBatchSize: number;
  private lastCleanup: number;

  constructor(options: PostgresRateLimiterOptions) {
    this.database = options.database;
    this.clock = options.clock;
    this.cleanupIntervalMs = options.cleanupIntervalMs ?? 60_000;
    this.cleanupBatchSize = options.cleanupBatchSize ?? 10_000;
    this.lastCleanup = this.localNow();
  }

  async consume(key: string, rule: RateLimitRule, cost = 1): Promise<RateLimitDecision> {
    checkConsumeArguments(key, rule, cost);
    const now = this.clock ? new Date(this.clock()).toISOString() : null;
    const [row] = await this.database.query<ConsumeRow>(CONSUME_SQL, [key, cost, rule.limit, now, rule.windowMs]);
    if (!row) throw new Error("rate limiter: the upsert returned no row");
    const result = decision(row.allowed, Number(row.count), rule.limit, Number(row.reset_at_ms), Number(row.now_ms));
    if (this.localNow() - this.lastCleanup >= this.cleanupIntervalMs) {
      // Awaited (so no query outlives the caller's close()) but never fails the consume.
      await this.cleanup().catch(() => undefined);
    }
    return result;
  }

  /** Deletes up to one batch of rows whose window has ended; returns how many. */
  async cleanup(): Promise<number> {
    this.lastCleanup = this.localNow();
    const now = this.clock ? new Date(this.clock()).toISOString() : null;
    const [row] = await this.database.query<{ deleted: number }>(CLEANUP_SQL, [now, this.cleanupBatchSize]);
    const deleted = Number(row?.deleted ?? 0);
    // A full batch: more may be waiting, so let the next consume continue.
    if (deleted >= this.cleanupBatchSize) this.lastCleanup = -Infinity;
    return deleted;
  }

  private localNow(): number {
    return this.clock ? this.clock() : Date.now();
  }
}
