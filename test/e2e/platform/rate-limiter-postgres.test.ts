import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../lib/db/database.ts";
import { applyMigrations, migrationSets } from "../../../lib/db/migrations.ts";
import { PostgresRateLimiter } from "../../../lib/rate-limit/postgres-rate-limiter.ts";
import type { RateLimitDecision } from "../../../lib/rate-limit/rate-limiter.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// Two instances ("processes"), each with its own Database (its own pg.Pool), share one budget
// through ratelimit.buckets. On PGlite there is one connection per process, so both share it.
// Each instance counts in memory and writes in batches: together they admit at most
// limit + (instances − 1) × max(allowance, largest cost), the allowance being 10% of the limit.
let databases: Database[] = [];
let limiters: PostgresRateLimiter[] = [];

beforeAll(async () => {
  const databaseUrl = await freshDatabaseUrl();
  const first = await openDatabase({ databaseUrl, dataDir: "memory://" });
  await applyMigrations(first, migrationSets);
  const second = databaseUrl ? await openDatabase({ databaseUrl, dataDir: "memory://" }) : first;
  databases = databaseUrl ? [first, second] : [first];
  // open every pooled connection up front, so neither instance starts the race ahead
  for (const database of databases) await Promise.all(Array.from({ length: 10 }, () => database.query("SELECT pg_sleep(0.05)")));
  // the database's clock, as in production
  limiters = [first, second].map((database) => new PostgresRateLimiter({ database }));
});
afterAll(async () => {
  for (const limiter of limiters) await limiter.close();
  for (const database of databases) await database.close();
});

function admitted(decisions: RateLimitDecision[]): number {
  return decisions.filter((d) => d.allowed).length;
}

describe(`shared rate limit across two instances (${onPostgres ? "PostgreSQL" : "PGlite"})`, () => {
  it("admits the limit, and at most one allowance more, in total from 2 × 50 concurrent consumes", async () => {
    const rule = { limit: 23, windowMs: 60_000 }; // allowance 2
    const perInstance = await Promise.all(
      limiters.map((limiter) => Promise.all(Array.from({ length: 50 }, () => limiter.consume("api_key:shared", rule)))),
    );
    const total = admitted(perInstance.flat());
    expect(total).toBeGreaterThanOrEqual(23);
    expect(total).toBeLessThanOrEqual(23 + 2);
    // both took part: neither instance's pool got everything first
    if (onPostgres) for (const decisions of perInstance) expect(admitted(decisions)).toBeGreaterThan(0);
    for (const refused of perInstance.flat().filter((d) => !d.allowed)) {
      expect(refused.remaining).toBe(0);
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    // once both have written, the row holds every admitted unit, and both refuse
    for (const limiter of limiters) await limiter.sync();
    const [{ count }] = await databases[0]!.query<{ count: number }>(`SELECT count FROM ratelimit.buckets WHERE key = 'api_key:shared'`);
    expect(count).toBe(total);
    for (const limiter of limiters) expect((await limiter.consume("api_key:shared", rule)).allowed).toBe(false);
  });

  it("keeps alternating instances within the bound, however they interleave", async () => {
    const rule = { limit: 10, windowMs: 60_000 }; // allowance 1
    const [a, b] = limiters as [PostgresRateLimiter, PostgresRateLimiter];
    const decisions = [];
    for (let i = 0; i < 15; i++) decisions.push(await (i % 2 === 0 ? a : b).consume("user:alternating", rule));
    expect(admitted(decisions)).toBeGreaterThanOrEqual(10);
    expect(admitted(decisions)).toBeLessThanOrEqual(11);
  });

  it("shares mixed costs within the bound", async () => {
    const rule = { limit: 40, windowMs: 60_000 }; // allowance 4, costs up to 3
    const costs = Array.from({ length: 60 }, (_, i) => 1 + (i % 3));
    const perInstance = await Promise.all(
      limiters.map((limiter) => Promise.all(costs.map(async (cost) => ({ cost, decision: await limiter.consume("user:shared", rule, cost) })))),
    );
    const units = perInstance.flat().reduce((sum, { cost, decision }) => sum + (decision.allowed ? cost : 0), 0);
    expect(units).toBeLessThanOrEqual(40 + 4);
    // a refusal is never early: whatever is left over is smaller than the smallest refused cost
    const refusedCosts = perInstance.flat().filter(({ decision }) => !decision.allowed).map(({ cost }) => cost);
    expect(40 - units).toBeLessThan(Math.min(...refusedCosts));
  });

  it("gives the budget back to every instance when the window ends", async () => {
    const rule = { limit: 3, windowMs: 1_000 };
    const [a, b] = limiters as [PostgresRateLimiter, PostgresRateLimiter];
    const first = await Promise.all([a, b, a, b, a, b].map((limiter) => limiter.consume("ip:203.0.113.7", rule)));
    expect(admitted(first)).toBeGreaterThanOrEqual(3);
    expect(admitted(first)).toBeLessThanOrEqual(4);
    const refused = first.find((d) => !d.allowed)!;
    expect(refused.retryAfterSeconds).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, refused.resetAt.getTime() - Date.now()) + 50));
    const second = await Promise.all([b, a, b, a, b, a].map((limiter) => limiter.consume("ip:203.0.113.7", rule)));
    expect(admitted(second)).toBeGreaterThanOrEqual(3);
    expect(admitted(second)).toBeLessThanOrEqual(4);
  });
});
