import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { applyMigrations, migrationSets } from "../../lib/db/migrations.ts";
import { createRateLimiter } from "../../lib/rate-limit/config.ts";
import type { RateLimitDecision, RateLimiter } from "../../lib/rate-limit/rate-limiter.ts";
import { freshDatabaseUrl, onPostgres } from "../support/test-database.ts";

// Two instances ("processes"), each with its own Database (its own pg.Pool), share one budget
// through ratelimit.buckets. On PGlite there is one connection per process, so both share it.
let databases: Database[] = [];
let limiters: RateLimiter[] = [];

beforeAll(async () => {
  const databaseUrl = await freshDatabaseUrl();
  const first = await openDatabase({ databaseUrl, dataDir: "memory://" });
  await applyMigrations(first, migrationSets);
  const second = databaseUrl ? await openDatabase({ databaseUrl, dataDir: "memory://" }) : first;
  databases = databaseUrl ? [first, second] : [first];
  // open every pooled connection up front, so neither instance starts the race ahead
  for (const database of databases) await Promise.all(Array.from({ length: 10 }, () => database.query("SELECT pg_sleep(0.05)")));
  // the database's clock, as in production
  limiters = [first, second].map((database) => createRateLimiter({ store: "postgres", database }));
});
afterAll(async () => {
  for (const database of databases) await database.close();
});

function admitted(decisions: RateLimitDecision[]): number {
  return decisions.filter((d) => d.allowed).length;
}

describe(`shared rate limit across two instances (${onPostgres ? "PostgreSQL" : "PGlite"})`, () => {
  it("admits exactly `limit` in total from 2 × 50 concurrent consumes", async () => {
    const rule = { limit: 23, windowMs: 60_000 };
    const perInstance = await Promise.all(
      limiters.map((limiter) => Promise.all(Array.from({ length: 50 }, () => limiter.consume("api_key:shared", rule)))),
    );
    expect(admitted(perInstance.flat())).toBe(23);
    // both took part: neither instance's pool got everything first
    if (onPostgres) for (const decisions of perInstance) expect(admitted(decisions)).toBeGreaterThan(0);
    for (const refused of perInstance.flat().filter((d) => !d.allowed)) {
      expect(refused.remaining).toBe(0);
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    const [{ count }] = await databases[0]!.query<{ count: number }>(`SELECT count FROM ratelimit.buckets WHERE key = 'api_key:shared'`);
    expect(count).toBe(23);
  });

  it("shares mixed costs exactly: never more units than the limit", async () => {
    const rule = { limit: 40, windowMs: 60_000 };
    const costs = Array.from({ length: 60 }, (_, i) => 1 + (i % 3));
    const perInstance = await Promise.all(
      limiters.map((limiter) => Promise.all(costs.map(async (cost) => ({ cost, decision: await limiter.consume("user:shared", rule, cost) })))),
    );
    const units = perInstance.flat().reduce((sum, { cost, decision }) => sum + (decision.allowed ? cost : 0), 0);
    expect(units).toBeLessThanOrEqual(40);
    // whatever is left over is smaller than the smallest refused cost
    const refusedCosts = perInstance.flat().filter(({ decision }) => !decision.allowed).map(({ cost }) => cost);
    expect(40 - units).toBeLessThan(Math.min(...refusedCosts));
  });

  it("gives the budget back to every instance when the window ends", async () => {
    const rule = { limit: 3, windowMs: 1_000 };
    const [a, b] = limiters as [RateLimiter, RateLimiter];
    const first = await Promise.all([a, b, a, b].map((limiter) => limiter.consume("ip:203.0.113.7", rule)));
    expect(admitted(first)).toBe(3);
    const refused = first.find((d) => !d.allowed)!;
    expect(refused.retryAfterSeconds).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, refused.resetAt.getTime() - Date.now()) + 50));
    const second = await Promise.all([b, a, b, a, b].map((limiter) => limiter.consume("ip:203.0.113.7", rule)));
    expect(admitted(second)).toBe(3);
  });
});
