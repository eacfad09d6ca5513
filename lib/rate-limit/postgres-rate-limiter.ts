// The shared limiter: fixed windows (see rate-limiter.ts) counted in this process's memory and
// synchronised in batches with ratelimit.buckets (prisma/ratelimit), one row per key, so every
// instance on the same database shares each budget WITHOUT a database write per request.
//
// Per key, an instance keeps the total it last read from the row (`shared`) and the units it
// admitted since (`unsynced`), and decides each consume locally: admitted when
// shared + unsynced + cost <= limit. Unsynced units of every key go to the database in one
// statement (a multi-row INSERT … ON CONFLICT DO UPDATE adding them to each row, in key order so
// concurrent writers never deadlock, RETURNING each row's new total and window end):
// - every `syncIntervalMs` (default 250 ms), in the background;
// - at once when a key's unsynced units would pass its local allowance (`allowanceShare` of its
//   limit, default 10%, at least 1): that consume waits for the write and decides on the fresh
//   total. A key this instance holds nothing of is decided without waiting, on its own units.
//
// GUARANTEE, per key and per window as the database counts them: at most
//     limit + (instances − 1) × max(allowance, largest single cost)
// units are admitted, exactly `limit` with one instance. (The instance that wrote last saw every
// unit written before it and admitted within the limit from there; each other instance can hold
// at most one allowance it never saw.) E.g. `user` 300 per minute on 3 instances: at most 360;
// `pint_exchange` 30: at most 36. A refusal is never early: the shared total only grows within a
// window. Windows are the database's (the first write of a key anchors it, on the database's
// clock, back-dated to the writer's first unit); units admitted too close to a window's end to be
// written before it ends are dropped with that window. Written units are added unconditionally:
// they were admitted already.
//
// When the database fails: what can be decided locally still is; a consume that must sync throws
// (FailOpenRateLimiter lets its request through and logs it), at the latest after `syncWaitMs` when
// the database hangs (the write goes on within its own deadlines), and for `retryAfterFailureMs` later
// syncs fail at once instead of each waiting on a dead database. Unsynced units wait for the next
// successful write. Works on PGlite too. Rows of ended windows are deleted now and then.
import type { Queryable } from "../db/database.ts";
import { checkConsumeArguments, decision, type RateLimitDecision, type RateLimitRule, type RateLimiter } from "./rate-limiter.ts";

export interface PostgresRateLimiterOptions {
  /** the process's Database (lib/db/database.ts), migrated with the `ratelimit` migration set */
  database: Queryable;
  /**
   * Milliseconds since the epoch, for tests. By default the DATABASE's clock anchors windows, so
   * instances whose clocks disagree still agree on every window.
   */
  clock?: () => number;
  /** how often unsynced units are written in the background; default 250 ms; 0: only on demand */
  syncIntervalMs?: number;
  /** share of a key's limit an instance may admit before it must sync; default 0.1 */
  allowanceShare?: number;
  /** after a failed write, syncs fail at once for this long; default 1 s */
  retryAfterFailureMs?: number;
  /** a consume waits at most this long for a write it needs, then throws; default 1 s */
  syncWaitMs?: number;
  /** at most this many keys are held in memory (default 100,000; the oldest is dropped) */
  maxKeys?: number;
  /** how often (per instance) rows of ended windows are deleted; default one minute */
  cleanupIntervalMs?: number;
  /** rows deleted per cleanup at most; a full batch makes the next tick clean up again */
  cleanupBatchSize?: number;
}

interface Entry {
  key: string;
  /** the row's total as last read (0 before the first sync) */
  shared: number;
  /** admitted here and not yet written (including units being written right now) */
  unsynced: number;
  /** whether `shared` and `windowEnd` come from the database */
  synced: boolean;
  /** local milliseconds; provisional (first consume + window) until synced */
  windowEnd: number;
  windowMs: number;
}

// $1 JSON [{key, units, window_ms, age_ms, ord}], $2 now (null: the database's clock). A fresh
// window starts when this instance's first unit was admitted (`age_ms` ago), not at the write. In
// DO UPDATE, `b` is the row as it was and EXCLUDED the row a fresh window would insert. The int
// column saturates rather than overflowing.
const SYNC_SQL = `
WITH clock AS (
  SELECT COALESCE($2::timestamptz, date_trunc('milliseconds', clock_timestamp())) AS now
), input AS (
  SELECT * FROM json_to_recordset($1::json) AS t(key text, units bigint, window_ms float8, age_ms float8, ord int)
), upsert AS (
  INSERT INTO "ratelimit"."buckets" AS b (key, count, window_start, expires_at, last_allowed)
  SELECT input.key, LEAST(input.units, 2147483647),
         clock.now - input.age_ms * interval '1 millisecond',
         clock.now + (input.window_ms - input.age_ms) * interval '1 millisecond',
         true
  FROM input, clock
  ORDER BY input.ord
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN b.expires_at <= (SELECT now FROM clock) THEN EXCLUDED.count ELSE LEAST(b.count::bigint + EXCLUDED.count, 2147483647) END,
    window_start = CASE WHEN b.expires_at <= (SELECT now FROM clock) THEN EXCLUDED.window_start ELSE b.window_start END,
    expires_at = CASE WHEN b.expires_at <= (SELECT now FROM clock) THEN EXCLUDED.expires_at ELSE b.expires_at END,
    last_allowed = true
  RETURNING b.key, b.count, b.expires_at
)
SELECT upsert.key AS key,
       upsert.count AS count,
       (extract(epoch FROM upsert.expires_at) * 1000)::float8 AS reset_at_ms,
       (extract(epoch FROM clock.now) * 1000)::float8 AS now_ms
FROM upsert, clock`;

// A row whose window has ended holds nothing: deleting it while a write of the same key runs is
// harmless (the write either restarts the row's window, which the DELETE's re-check then spares,
// or inserts a fresh one).
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

/** Keys written per statement at most. */
const SYNC_BATCH = 1_000;

interface SyncRow {
  key: string;
  count: number;
  reset_at_ms: number;
  now_ms: number;
}

export class PostgresRateLimiter implements RateLimiter {
  private readonly database: Queryable;
  private readonly clock?: () => number;
  private readonly allowanceShare: number;
  private readonly retryAfterFailureMs: number;
  private readonly syncWaitMs: number;
  private readonly maxKeys: number;
  private readonly cleanupIntervalMs: number;
  private readonly cleanupBatchSize: number;
  private readonly entries = new Map<string, Entry>();
  /** entries with units to write, or never read: what the next write sends */
  private readonly dirty = new Set<Entry>();
  private lastSweep: number;
  private readonly timer?: NodeJS.Timeout;
  private syncing?: Promise<void>;
  private failedUntil = 0;
  private lastFailure: unknown;
  private lastCleanup: number;
  private closed = false;

  constructor(options: PostgresRateLimiterOptions) {
    this.database = options.database;
    this.clock = options.clock;
    this.allowanceShare = options.allowanceShare ?? 0.1;
    this.retryAfterFailureMs = options.retryAfterFailureMs ?? 1_000;
    this.syncWaitMs = options.syncWaitMs ?? 1_000;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.cleanupIntervalMs = options.cleanupIntervalMs ?? 60_000;
    this.cleanupBatchSize = options.cleanupBatchSize ?? 10_000;
    if (!(this.allowanceShare > 0 && this.allowanceShare <= 1)) throw new RangeError(`allowanceShare must be in (0, 1], got ${this.allowanceShare}`);
    if (!Number.isSafeInteger(this.maxKeys) || this.maxKeys < 1) throw new RangeError(`maxKeys must be a positive integer, got ${this.maxKeys}`);
    this.lastCleanup = this.localNow();
    this.lastSweep = this.lastCleanup;
    const interval = options.syncIntervalMs ?? 250;
    // unref: a pending background write never keeps the process alive (close() writes the rest)
    if (interval > 0) this.timer = setInterval(() => void this.tick(), interval).unref();
  }

  /** Units of `rule` one instance may admit for a key before it must write them. */
  allowance(rule: RateLimitRule): number {
    return Math.max(1, Math.floor(rule.limit * this.allowanceShare));
  }

  async consume(key: string, rule: RateLimitRule, cost = 1): Promise<RateLimitDecision> {
    checkConsumeArguments(key, rule, cost);
    const allowance = this.allowance(rule);
    // each round admits up to an allowance per waiting key, so concurrent waiters get through in turn
    for (let round = 0; round < 100; round++) {
      const entry = this.entry(key, rule);
      const now = this.localNow();
      const count = entry.shared + entry.unsynced;
      // the shared total only grows within a window: a local refusal is never early
      if (count + cost > rule.limit) return decision(false, count, rule.limit, entry.windowEnd, now);
      const mustSync = entry.unsynced > 0 ? entry.unsynced + cost > allowance : !entry.synced && cost > allowance;
      if (mustSync) {
        await this.syncWithin(this.syncWaitMs);
        continue;
      }
      entry.unsynced += cost;
      this.dirty.add(entry);
      return decision(true, count + cost, rule.limit, entry.windowEnd, now);
    }
    throw new Error(`rate limiter: ${key} could not be synchronised (too much contention)`);
  }

  async peek(key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    checkConsumeArguments(key, rule, 1);
    const now = this.localNow();
    const entry = this.entries.get(key);
    if (!entry || entry.windowEnd <= now) return decision(true, 0, rule.limit, now + rule.windowMs, now);
    const count = entry.shared + entry.unsynced;
    return decision(count + 1 <= rule.limit, count, rule.limit, entry.windowEnd, now);
  }

  /**
   * Writes every key's unsynced units and reads back the totals: joins the write in flight if
   * there is one. Rejects when the database fails (and, for a while after, at once).
   */
  sync(): Promise<void> {
    if (this.syncing) return this.syncing;
    if (Date.now() < this.failedUntil) return Promise.reject(this.lastFailure);
    this.syncing = this.write().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  /** sync(), waited for at most `ms`: a database that hangs holds a request no longer than that. */
  private async syncWithin(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`rate limiter: the store did not answer within ${ms} ms`)), ms)));
    try {
      await Promise.race([this.sync(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async ping(): Promise<void> {
    await this.database.query(`SELECT 1 FROM "ratelimit"."buckets" LIMIT 1`);
  }

  /** Stops the background writes and writes what is left (best effort). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.syncing?.catch(() => undefined);
    this.failedUntil = 0;
    await this.sync().catch(() => undefined);
  }

  /** Deletes up to one batch of rows whose window has ended; returns how many. */
  async cleanup(): Promise<number> {
    this.lastCleanup = this.localNow();
    const [row] = await this.database.query<{ deleted: number }>(CLEANUP_SQL, [this.databaseNow(), this.cleanupBatchSize]);
    const deleted = Number(row?.deleted ?? 0);
    // a full batch: more may be waiting, so let the next tick continue
    if (deleted >= this.cleanupBatchSize) this.lastCleanup = -Infinity;
    return deleted;
  }

  /** keys currently held in memory */
  get size(): number {
    return this.entries.size;
  }

  private async tick(): Promise<void> {
    if (this.closed) return;
    const now = this.localNow();
    if (now - this.lastSweep >= 60_000) {
      this.lastSweep = now;
      for (const [key, entry] of this.entries) if (entry.windowEnd <= now) this.forget(key, entry);
    }
    if (!this.syncing && this.dirty.size > 0) await this.sync().catch(() => undefined);
    if (now - this.lastCleanup >= this.cleanupIntervalMs) await this.cleanup().catch(() => undefined);
  }

  /** The key's live entry: a fresh one when there is none or its window has ended. */
  private entry(key: string, rule: RateLimitRule): Entry {
    const now = this.localNow();
    let entry = this.entries.get(key);
    if (entry && entry.windowEnd <= now) {
      // its units belong to an ended window: dropped with it
      this.forget(key, entry);
      entry = undefined;
    }
    if (!entry) {
      // oldest first (Map order): a flood of new keys costs O(1) each; the dropped key's unsynced units are lost
      if (this.entries.size >= this.maxKeys) {
        const [oldKey, oldEntry] = this.entries.entries().next().value!;
        this.forget(oldKey, oldEntry);
      }
      entry = { key, shared: 0, unsynced: 0, synced: false, windowEnd: now + rule.windowMs, windowMs: rule.windowMs };
      this.entries.set(key, entry);
      this.dirty.add(entry);
    }
    return entry;
  }

  private forget(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.dirty.delete(entry);
  }

  private async write(): Promise<void> {
    const now = this.localNow();
    const batch = [...this.dirty].filter((e) => e.windowEnd > now).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    try {
      for (let start = 0; start < batch.length; start += SYNC_BATCH) {
        const part = batch.slice(start, start + SYNC_BATCH);
        const sent = part.map((e) => e.unsynced);
        const input = part.map((e, ord) => ({ key: e.key, units: sent[ord], window_ms: e.windowMs, age_ms: Math.max(0, now - (e.windowEnd - e.windowMs)), ord }));
        const rows = await this.database.query<SyncRow>(SYNC_SQL, [JSON.stringify(input), this.databaseNow()]);
        const received = this.localNow();
        const byKey = new Map(rows.map((row) => [row.key, row]));
        part.forEach((entry, i) => {
          const row = byKey.get(entry.key);
          // a key whose window ended (or that was dropped) meanwhile has a new entry: leave it alone
          if (!row || this.entries.get(entry.key) !== entry) return;
          entry.unsynced -= sent[i]!;
          entry.shared = Number(row.count);
          entry.windowEnd = received + (Number(row.reset_at_ms) - Number(row.now_ms));
          entry.synced = true;
          // units admitted while this write ran go with the next one
          if (entry.unsynced === 0) this.dirty.delete(entry);
        });
      }
    } catch (error) {
      this.lastFailure = error;
      this.failedUntil = Date.now() + this.retryAfterFailureMs;
      throw error;
    }
  }

  private databaseNow(): string | null {
    return this.clock ? new Date(this.clock()).toISOString() : null;
  }

  private localNow(): number {
    return this.clock ? this.clock() : Date.now();
  }
}
