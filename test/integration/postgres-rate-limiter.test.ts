import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database, type Queryable } from "../../lib/db/database.ts";
import { applyMigrations } from "../../lib/db/migrations.ts";
import { createRateLimiter } from "../../lib/rate-limit/config.ts";
import { PostgresRateLimiter } from "../../lib/rate-limit/postgres-rate-limiter.ts";
import type { RateLimitRule } from "../../lib/rate-limit/rate-limiter.ts";

const START = Date.UTC(2026, 0, 1, 12, 0, 0);
const perMinute = (limit: number): RateLimitRule => ({ limit, windowMs: 60_000 });

let db: Database;
let now: number;
let limiter: PostgresRateLimiter;

beforeAll(async () => {
  db = await openDatabase({ dataDir: "memory://" });
  await applyMigrations(db, ["ratelimit"]);
});
afterAll(async () => {
  await db.close();
});
beforeEach(async () => {
  await db.exec(`DELETE FROM ratelimit.buckets`);
  now = START;
  // writes on demand only, so each test sees exactly when the database is written
  limiter = new PostgresRateLimiter({ database: db, clock: () => now, syncIntervalMs: 0 });
});

async function rows(): Promise<{ key: string; count: number }[]> {
  return db.query(`SELECT key, count FROM ratelimit.buckets ORDER BY key`);
}

describe("PostgresRateLimiter on PGlite", () => {
  it("admits exactly `limit` per window, counting remaining down", async () => {
    const decisions = [];
    for (let i = 0; i < 7; i++) decisions.push(await limiter.consume("user:1", perMinute(5)));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    for (const d of decisions) expect(d.resetAt).toEqual(new Date(START + 60_000));
    await limiter.sync();
    expect(await rows()).toEqual([{ key: "user:1", count: 5 }]);
  });

  it("admits exactly `limit` of 50 concurrent consumes", async () => {
    const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.consume("api_key:k1", perMinute(12))));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(12);
    expect(decisions.filter((d) => !d.allowed).every((d) => d.retryAfterSeconds === 60 && d.remaining === 0)).toBe(true);
    await limiter.sync();
    expect(await rows()).toEqual([{ key: "api_key:k1", count: 12 }]);
  });

  it("keeps keys apart", async () => {
    expect((await limiter.consume("user:1", perMinute(1))).allowed).toBe(true);
    expect((await limiter.consume("user:1", perMinute(1))).allowed).toBe(false);
    expect((await limiter.consume("user:2", perMinute(1))).allowed).toBe(true);
  });

  it("starts a new window when the old one ends, not before; refusals do not extend it", async () => {
    const rule = perMinute(2);
    await limiter.consume("k", rule);
    now += 30_000;
    await limiter.consume("k", rule);
    now += 29_999;
    expect(await limiter.consume("k", rule)).toMatchObject({ allowed: false, retryAfterSeconds: 1, resetAt: new Date(START + 60_000) });
    now += 1;
    expect(await limiter.consume("k", rule)).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0, resetAt: new Date(START + 120_000) });
  });

  it("answers retryAfterSeconds as whole seconds to the window's end, rounded up, at least 1", async () => {
    const rule = perMinute(1);
    expect((await limiter.consume("k", rule)).retryAfterSeconds).toBe(0);
    now += 10_500;
    expect((await limiter.consume("k", rule)).retryAfterSeconds).toBe(50);
    now += 49_499;
    expect((await limiter.consume("k", rule)).retryAfterSeconds).toBe(1);
  });

  it("charges a cost > 1 only when it fits, and never admits a cost above the limit", async () => {
    const rule = perMinute(10);
    expect(await limiter.consume("k", rule, 4)).toMatchObject({ allowed: true, remaining: 6 });
    expect(await limiter.consume("k", rule, 4)).toMatchObject({ allowed: true, remaining: 2 });
    expect(await limiter.consume("k", rule, 4)).toMatchObject({ allowed: false, remaining: 2, retryAfterSeconds: 60 });
    expect(await limiter.consume("k", rule, 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume("other", rule, 11)).toMatchObject({ allowed: false, remaining: 10, retryAfterSeconds: 60 });
    expect(await limiter.consume("other", rule, 10)).toMatchObject({ allowed: true, remaining: 0 });
    // counts beyond the int range are compared, never overflowed
    const big = { limit: 2_147_483_647, windowMs: 60_000 };
    expect(await limiter.consume("big", big, 2_147_483_647)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume("big", big, 2_147_483_647)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it("uses the database's clock when given none", async () => {
    const real = createRateLimiter({ store: "postgres", database: db });
    const before = Date.now();
    const first = await real.consume("db-clock", { limit: 1, windowMs: 5_000 });
    const second = await real.consume("db-clock", { limit: 1, windowMs: 5_000 });
    expect(first.allowed).toBe(true);
    expect(second).toMatchObject({ allowed: false, retryAfterSeconds: 5 });
    expect(Math.abs(first.resetAt.getTime() - (before + 5_000))).toBeLessThan(2_000);
    await real.close?.();
  });

  it("deletes rows of ended windows, in batches", async () => {
    const cleaning = new PostgresRateLimiter({ database: db, clock: () => now, syncIntervalMs: 0, cleanupBatchSize: 2 });
    for (const key of ["a", "b", "c"]) await cleaning.consume(key, { limit: 1, windowMs: 1_000 });
    await cleaning.consume("live", perMinute(1));
    await cleaning.sync();
    expect(await rows()).toHaveLength(4);
    now += 5_000;
    expect(await cleaning.cleanup()).toBe(2);
    expect(await cleaning.cleanup()).toBe(1);
    expect(await rows()).toEqual([{ key: "live", count: 1 }]);
    now += 60_000;
    expect(await cleaning.cleanup()).toBe(1);
    expect(await rows()).toEqual([]);
  });

  it("makes no database call per consume: units are written in one batch statement", async () => {
    const counting = countingQueries(db);
    const batching = new PostgresRateLimiter({ database: counting, clock: () => now, syncIntervalMs: 0 });
    // 1000 per minute: an allowance of 100 per key before a write is due
    for (let i = 0; i < 90; i++) expect((await batching.consume(`user:${i % 3}`, perMinute(1000))).allowed).toBe(true);
    expect(counting.calls).toBe(0);
    await batching.sync();
    expect(counting.calls).toBe(1);
    expect(await rows()).toEqual([
      { key: "user:0", count: 30 },
      { key: "user:1", count: 30 },
      { key: "user:2", count: 30 },
    ]);
  });

  it("writes before passing a key's allowance, and decides on the total read back", async () => {
    const counting = countingQueries(db);
    const a = new PostgresRateLimiter({ database: counting, clock: () => now, syncIntervalMs: 0 });
    const rule = perMinute(20); // allowance 2
    // another instance spent 18 of the budget already
    await db.query(`INSERT INTO ratelimit.buckets (key, count, window_start, expires_at, last_allowed) VALUES ('k', 18, $1, $2, true)`, [new Date(START), new Date(START + 60_000)]);
    expect(await a.consume("k", rule)).toMatchObject({ allowed: true, remaining: 19 }); // on its own units
    expect(await a.consume("k", rule)).toMatchObject({ allowed: true, remaining: 18 });
    expect(counting.calls).toBe(0);
    // the next would pass the allowance: it waits for the write and sees 20 of 20 spent
    expect(await a.consume("k", rule)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 60 });
    expect(counting.calls).toBe(1);
    // refusals are decided locally
    expect(await a.consume("k", rule)).toMatchObject({ allowed: false });
    expect(counting.calls).toBe(1);
    expect(await rows()).toEqual([{ key: "k", count: 20 }]);
  });

  it("fails a consume that must write while the database is down, then at once for a while, and recovers", async () => {
    const flaky = countingQueries(db);
    const limiter = new PostgresRateLimiter({ database: flaky, clock: () => now, syncIntervalMs: 0, retryAfterFailureMs: 200 });
    const rule = perMinute(10); // allowance 1
    flaky.down = true;
    expect((await limiter.consume("k", rule)).allowed).toBe(true); // decided locally
    await expect(limiter.consume("k", rule)).rejects.toThrow("database down");
    await expect(limiter.consume("k", rule)).rejects.toThrow("database down");
    expect(flaky.calls).toBe(1); // the second failed at once
    flaky.down = false;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await limiter.consume("k", rule)).toMatchObject({ allowed: true, remaining: 8 });
    expect(await rows()).toEqual([{ key: "k", count: 1 }]); // the unit kept while down was written
  });

  it("waits at most syncWaitMs for a write a database that hangs never answers, then fails the consume", async () => {
    const hanging: Queryable = { query: () => new Promise(() => {}), exec: async () => {} };
    const limiter = new PostgresRateLimiter({ database: hanging, clock: () => now, syncIntervalMs: 0, syncWaitMs: 100 });
    const rule = perMinute(10); // allowance 1
    expect((await limiter.consume("k", rule)).allowed).toBe(true); // decided locally
    const started = Date.now();
    await expect(limiter.consume("k", rule)).rejects.toThrow("the store did not answer within 100 ms");
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("peeks without taking a unit or touching the database", async () => {
    const counting = countingQueries(db);
    const peeking = new PostgresRateLimiter({ database: counting, clock: () => now, syncIntervalMs: 0 });
    expect(await peeking.peek("k", perMinute(2))).toMatchObject({ allowed: true, remaining: 2 });
    await peeking.consume("k", perMinute(2));
    expect(await peeking.peek("k", perMinute(2))).toMatchObject({ allowed: true, remaining: 1 });
    await peeking.consume("k", perMinute(2));
    expect(await peeking.peek("k", perMinute(2))).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 60 });
    expect(counting.calls).toBe(1); // the second consume's write, not the peeks
  });

  it("writes what is left on close", async () => {
    const closing = new PostgresRateLimiter({ database: db, clock: () => now, syncIntervalMs: 0 });
    await closing.consume("k", perMinute(100), 3);
    await closing.close();
    expect(await rows()).toEqual([{ key: "k", count: 3 }]);
  });

  it("writes in the background every syncIntervalMs", async () => {
    const background = new PostgresRateLimiter({ database: db, syncIntervalMs: 20 });
    await background.consume("k", perMinute(100));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(await rows()).toEqual([{ key: "k", count: 1 }]);
    await background.close();
  });
});

/** The database, counting the limiter's statements; `down` makes them fail. */
function countingQueries(database: Queryable): Queryable & { calls: number; down: boolean } {
  const wrapper = {
    calls: 0,
    down: false,
    async query<T>(sql: string, params?: unknown[]): Promise<T[]> {
      wrapper.calls++;
      if (wrapper.down) throw new Error("database down");
      return database.query<T>(sql, params);
    },
    exec: (sql: string) => database.exec(sql),
  };
  return wrapper;
}
