import { describe, expect, it } from "vitest";
import { ConfigError } from "../../lib/config.ts";
import { AppError } from "../../lib/errors/app-error.ts";
import { createRateLimiter, DEFAULT_RATE_LIMITS, loadRateLimitConfig } from "../../lib/rate-limit/config.ts";
import { MemoryRateLimiter } from "../../lib/rate-limit/memory-rate-limiter.ts";
import { PostgresRateLimiter } from "../../lib/rate-limit/postgres-rate-limiter.ts";
import type { RateLimitRule } from "../../lib/rate-limit/rate-limiter.ts";
import { FailOpenRateLimiter } from "../../lib/rate-limit/fail-open-rate-limiter.ts";
import { limit, rateLimitsFor } from "../../lib/rate-limit/rate-limits.ts";

const START = Date.UTC(2026, 0, 1, 12, 0, 0);

function fakeClock(start = START) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms), set: (ms: number) => (now = ms) };
}

const perMinute = (limit: number): RateLimitRule => ({ limit, windowMs: 60_000 });

describe("MemoryRateLimiter", () => {
  it("admits exactly `limit` per window, counting remaining down", async () => {
    const clock = fakeClock();
    const limiter = new MemoryRateLimiter({ clock: clock.now });
    const rule = perMinute(5);
    const decisions = [];
    for (let i = 0; i < 7; i++) decisions.push(await limiter.consume("user:1", rule));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    for (const d of decisions) expect(d.resetAt).toEqual(new Date(START + 60_000));
  });

  it("admits exactly `limit` of many concurrent consumes", async () => {
    const limiter = new MemoryRateLimiter();
    const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.consume("ip:10.0.0.1", perMinute(7))));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(7);
  });

  it("keeps keys apart", async () => {
    const limiter = new MemoryRateLimiter();
    expect((await limiter.consume("user:1", perMinute(1))).allowed).toBe(true);
    expect((await limiter.consume("user:1", perMinute(1))).allowed).toBe(false);
    expect((await limiter.consume("user:2", perMinute(1))).allowed).toBe(true);
  });

  it("starts a new window when the old one ends, not before", async () => {
    const clock = fakeClock();
    const limiter = new MemoryRateLimiter({ clock: clock.now });
    const rule = perMinute(2);
    await limiter.consume("k", rule);
    await limiter.consume("k", rule);
    clock.advance(59_999);
    expect((await limiter.consume("k", rule)).allowed).toBe(false);
    clock.advance(1);
    const fresh = await limiter.consume("k", rule);
    expect(fresh).toEqual({ allowed: true, remaining: 1, retryAfterSeconds: 0, resetAt: new Date(START + 120_000) });
  });

  it("anchors the window at the key's first consume; refusals do not extend it", async () => {
    const clock = fakeClock();
    const limiter = new MemoryRateLimiter({ clock: clock.now });
    const rule = perMinute(1);
    clock.advance(15_000);
    expect((await limiter.consume("k", rule)).resetAt).toEqual(new Date(START + 75_000));
    clock.advance(30_000);
    expect((await limiter.consume("k", rule)).resetAt).toEqual(new Date(START + 75_000));
    clock.advance(30_000);
    expect((await limiter.consume("k", rule)).allowed).toBe(true);
  });

  it("answers retryAfterSeconds as whole seconds to the window's end, rounded up, at least 1", async () => {
    const clock = fakeClock();
    const limiter = new MemoryRateLimiter({ clock: clock.now });
    const rule = perMinute(1);
    expect((await limiter.consume("k", rule)).retryAfterSeconds).toBe(0);
    clock.advance(10_500);
    expect((await limiter.consume("k", rule)).retryAfterSeconds).toBe(50); // 49.5 s left
    clock.advance(49_000);
    expect((await limiter.consume("k", rule)).retryAfterSeconds).toBe(1); // 0.5 s left
    clock.advance(499);
    expect((await limiter.consume("k", rule)).retryAfterSeconds).toBe(1); // 1 ms left
    // a sub-second window still asks for at least one second
    const short = await (async () => {
      await limiter.consume("short", { limit: 1, windowMs: 200 });
      return limiter.consume("short", { limit: 1, windowMs: 200 });
    })();
    expect(short).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
  });

  it("charges a cost > 1 only when it fits, and never admits a cost above the limit", async () => {
    const clock = fakeClock();
    const limiter = new MemoryRateLimiter({ clock: clock.now });
    const rule = perMinute(10);
    expect(await limiter.consume("k", rule, 4)).toMatchObject({ allowed: true, remaining: 6 });
    expect(await limiter.consume("k", rule, 4)).toMatchObject({ allowed: true, remaining: 2 });
    expect(await limiter.consume("k", rule, 4)).toMatchObject({ allowed: false, remaining: 2, retryAfterSeconds: 60 });
    expect(await limiter.consume("k", rule, 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume("other", rule, 11)).toMatchObject({ allowed: false, remaining: 10, retryAfterSeconds: 60 });
    expect(await limiter.consume("other", rule, 10)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("refuses arguments no limiter can apply", async () => {
    const limiter = new MemoryRateLimiter();
    await expect(limiter.consume("k", perMinute(0))).rejects.toThrow(RangeError);
    await expect(limiter.consume("k", { limit: 1, windowMs: 0 })).rejects.toThrow(RangeError);
    await expect(limiter.consume("k", perMinute(1), 0)).rejects.toThrow(RangeError);
    await expect(limiter.consume("k", perMinute(1), 1.5)).rejects.toThrow(RangeError);
    await expect(limiter.consume("", perMinute(1))).rejects.toThrow(RangeError);
  });

  it("evicts ended windows once per sweep interval", async () => {
    const clock = fakeClock();
    const limiter = new MemoryRateLimiter({ clock: clock.now, sweepIntervalMs: 10_000 });
    for (let i = 0; i < 100; i++) await limiter.consume(`short:${i}`, { limit: 1, windowMs: 1_000 });
    await limiter.consume("long", perMinute(1));
    expect(limiter.size).toBe(101);
    clock.advance(5_000);
    await limiter.consume("long", perMinute(1));
    expect(limiter.size).toBe(101); // ended, but the sweep is not due yet
    clock.advance(5_000);
    await limiter.consume("long", perMinute(1));
    expect(limiter.size).toBe(1);
    expect(limiter.sweep(START + 70_000)).toBe(1);
    expect(limiter.size).toBe(0);
  });

  it("never tracks more than maxKeys, dropping the oldest window first", async () => {
    const clock = fakeClock();
    const limiter = new MemoryRateLimiter({ clock: clock.now, maxKeys: 3 });
    const rule = perMinute(1);
    for (const key of ["a", "b", "c"]) {
      await limiter.consume(key, rule);
      clock.advance(1);
    }
    await limiter.consume("d", rule);
    expect(limiter.size).toBe(3);
    // "a" was dropped and starts afresh; "b" is still limited
    expect((await limiter.consume("b", rule)).allowed).toBe(false);
    expect((await limiter.consume("a", rule)).allowed).toBe(true);
    expect(limiter.size).toBe(3);
    for (let i = 0; i < 1000; i++) await limiter.consume(`flood:${i}`, rule);
    expect(limiter.size).toBe(3);
  });
});

describe("limit", () => {
  const rules = { ...DEFAULT_RATE_LIMITS, user: perMinute(1) };

  it("throws the catalogue's 429 with Retry-After seconds when refused", async () => {
    const clock = fakeClock();
    const rateLimits = { limiter: new MemoryRateLimiter({ clock: clock.now }), rules };
    await limit(rateLimits, "k", "user");
    clock.advance(20_000);
    const error = await limit(rateLimits, "k", "user").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "GEN-429-001", status: 429, retryAfter: 40 });
    expect((error as AppError).extensions.retry_after).toBe(40);
  });

  it("lets the request through and reports the failure when the store fails (FailOpenRateLimiter)", async () => {
    const failures: unknown[] = [];
    const broken = { consume: () => Promise.reject(new Error("database down")), peek: () => Promise.reject(new Error("database down")) };
    const limiter = new FailOpenRateLimiter(broken, (e: unknown) => failures.push(e));
    await expect(limit({ limiter, rules }, "k", "user")).resolves.toBeUndefined();
    expect(await limiter.peek("k", rules.user)).toMatchObject({ allowed: true });
    expect(failures).toHaveLength(2);
    // a programming error is not a store failure
    await expect(limiter.consume("k", rules.user, 0)).rejects.toThrow(RangeError);
  });

  it("is how every process gets its limiter", async () => {
    expect((await rateLimitsFor({ rateLimits: { store: "memory", rules } })).limiter).toBeInstanceOf(FailOpenRateLimiter);
  });
});

describe("MemoryRateLimiter.peek", () => {
  it("says whether one more unit would be admitted, taking nothing", async () => {
    const clock = fakeClock();
    const limiter = new MemoryRateLimiter({ clock: clock.now });
    expect(await limiter.peek("k", perMinute(2))).toMatchObject({ allowed: true, remaining: 2 });
    await limiter.consume("k", perMinute(2));
    await limiter.consume("k", perMinute(2));
    expect(await limiter.peek("k", perMinute(2))).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 60 });
    expect(await limiter.peek("k", perMinute(2))).toMatchObject({ allowed: false });
    clock.advance(60_000);
    expect(await limiter.peek("k", perMinute(2))).toMatchObject({ allowed: true, remaining: 2 });
  });
});

describe("loadRateLimitConfig", () => {
  it("has a default for every named rule and picks the store from DATABASE_URL", () => {
    expect(loadRateLimitConfig({})).toEqual({
      store: "memory",
      rules: {
        api_key: { limit: 600, windowMs: 60_000 },
        user: { limit: 300, windowMs: 60_000 },
        ip: { limit: 300, windowMs: 60_000 },
        auth_failure: { limit: 20, windowMs: 60_000 },
        auth_failure_address: { limit: 600, windowMs: 60_000 },
        auth_verification: { limit: 120, windowMs: 60_000 },
        pint_exchange: { limit: 30, windowMs: 60_000 },
        rpc: { limit: 1200, windowMs: 60_000 },
      },
    });
    expect(loadRateLimitConfig({ DATABASE_URL: "postgres://db/app" }).store).toBe("postgres");
    expect(loadRateLimitConfig({ DATABASE_URL: "postgres://db/app", RATE_LIMIT_STORE: "memory" }).store).toBe("memory");
    expect(loadRateLimitConfig({ RATE_LIMIT_STORE: " Postgres " }).store).toBe("postgres");
  });

  it("overrides rules field by field, leaving the defaults alone", () => {
    const { rules } = loadRateLimitConfig({ RATE_LIMITS: '{"api_key": {"limit": 100, "window_seconds": 10}, "ip": {"limit": 5}, "rpc": {"window_seconds": 1}}' });
    expect(rules.api_key).toEqual({ limit: 100, windowMs: 10_000 });
    expect(rules.ip).toEqual({ limit: 5, windowMs: 60_000 });
    expect(rules.rpc).toEqual({ limit: 1200, windowMs: 1_000 });
    expect(rules.user).toEqual(DEFAULT_RATE_LIMITS.user);
    expect(DEFAULT_RATE_LIMITS.ip.limit).toBe(300);
  });

  it.each([
    ["not json", /RATE_LIMITS: expected JSON/],
    ["[]", /RATE_LIMITS: expected a JSON object/],
    ['{"apikey": {"limit": 1}}', /RATE_LIMITS: unknown rule "apikey"/],
    ['{"ip": 5}', /RATE_LIMITS: ip: expected an object/],
    ['{"ip": {"limit": 0}}', /RATE_LIMITS: ip\.limit: expected an integer/],
    ['{"ip": {"limit": "5"}}', /RATE_LIMITS: ip\.limit/],
    ['{"ip": {"limit": 2.5}}', /RATE_LIMITS: ip\.limit/],
    ['{"ip": {"window_seconds": 0}}', /RATE_LIMITS: ip\.window_seconds: expected a positive integer/],
    ['{"ip": {"window": 60}}', /RATE_LIMITS: ip: unknown field "window"/],
  ])("refuses RATE_LIMITS=%s naming the variable", (value, message) => {
    expect(() => loadRateLimitConfig({ RATE_LIMITS: value })).toThrow(ConfigError);
    expect(() => loadRateLimitConfig({ RATE_LIMITS: value })).toThrow(message);
  });

  it("refuses an unknown store naming the variable", () => {
    expect(() => loadRateLimitConfig({ RATE_LIMIT_STORE: "redis" })).toThrow(ConfigError);
    expect(() => loadRateLimitConfig({ RATE_LIMIT_STORE: "redis" })).toThrow(/^RATE_LIMIT_STORE: expected memory or postgres, got "redis"$/);
  });
});

describe("createRateLimiter", () => {
  it("builds the configured store", () => {
    expect(createRateLimiter({ store: "memory" })).toBeInstanceOf(MemoryRateLimiter);
    const database = { query: async () => [], exec: async () => {} };
    expect(createRateLimiter({ store: "postgres", database })).toBeInstanceOf(PostgresRateLimiter);
    expect(() => createRateLimiter({ store: "postgres" })).toThrow(/needs the database/);
  });
});
