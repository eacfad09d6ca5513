import { describe, expect, it } from "vitest";
import { AuthFailureBudgets, KNOWN_GOOD_MS, presentedCredential, presentsCredential } from "../../gateway/auth-failures.ts";
import { AppError } from "../../lib/errors/app-error.ts";
import { MemoryRateLimiter } from "../../lib/rate-limit/memory-rate-limiter.ts";
import { DEFAULT_RATE_LIMITS } from "../../lib/rate-limit/config.ts";

// Throttle attacks, not users (issue 25): failing credentials and failing addresses are slowed
// down; a credential that verifies is never refused for its address's failures.
function budgets(rules: Partial<typeof DEFAULT_RATE_LIMITS> = {}) {
  let now = 1_000_000;
  const clock = () => now;
  const limits = {
    limiter: new MemoryRateLimiter({ clock }),
    rules: {
      ...DEFAULT_RATE_LIMITS,
      auth_failure: { limit: 3, windowMs: 60_000 },
      auth_failure_address: { limit: 5, windowMs: 60_000 },
      auth_verification: { limit: 2, windowMs: 60_000 },
      ...rules,
    },
  };
  return { budgets: new AuthFailureBudgets(limits, clock), advance: (ms: number) => (now += ms) };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(429);
  expect((error as AppError).retryAfter).toBeGreaterThanOrEqual(1);
  return (error as AppError).code;
}

/** One attempt that ends as `outcome`; what the caller would throw (429) or undefined. */
async function attempt(b: AuthFailureBudgets, address: string, credential: string, outcome: "verified" | "expired" | "failed") {
  return (await b.begin(address, credential)).settle(outcome);
}

describe("AuthFailureBudgets", () => {
  it("refuses a credential that spent its own failure budget before verifying it, from any address", async () => {
    const { budgets: b } = budgets();
    for (const address of ["10.0.0.1", "10.0.0.2", "10.0.0.3"]) expect(await attempt(b, address, "stolen", "failed")).toBeUndefined();
    expect(await refusal(b.begin("10.0.0.4", "stolen"))).toBe("GEN-429-001");
    // other credentials from those addresses are verified as usual
    expect(await attempt(b, "10.0.0.1", "other", "verified")).toBeUndefined();
  });

  it("never refuses a credential that verifies from an address over its failure budget; its failing attempts get 429", async () => {
    const { budgets: b } = budgets({ auth_verification: { limit: 10, windowMs: 60_000 } });
    for (let i = 0; i < 5; i++) expect(await attempt(b, "10.0.0.9", `garbage${i}`, "failed")).toBeUndefined();
    // the address is over budget: a failing attempt is answered 429 instead of 401
    const failing = await attempt(b, "10.0.0.9", "garbage-next", "failed");
    expect(failing).toBeInstanceOf(AppError);
    expect((failing as AppError).status).toBe(429);
    // a valid credential passes (one verification from the address's bounded budget)
    expect(await attempt(b, "10.0.0.9", "valid-alice", "verified")).toBeUndefined();
    // known good now: it passes again and again without spending that budget
    for (let i = 0; i < 10; i++) expect(await attempt(b, "10.0.0.9", "valid-alice", "verified")).toBeUndefined();
    // a genuine expired token is a plain 401, not a 429 and not a failure
    expect(await attempt(b, "10.0.0.9", "expired-bob", "expired")).toBeUndefined();
  });

  it("bounds the verifications an address over its failure budget causes, except for credentials known good", async () => {
    const { budgets: b, advance } = budgets();
    expect(await attempt(b, "10.0.0.7", "valid-carol", "verified")).toBeUndefined();
    for (let i = 0; i < 5; i++) await attempt(b, "10.0.0.7", `garbage${i}`, "failed");
    // two more verifications (auth_verification), then refused before verifying
    await attempt(b, "10.0.0.7", "garbage5", "failed");
    await attempt(b, "10.0.0.7", "garbage6", "failed");
    expect(await refusal(b.begin("10.0.0.7", "garbage7"))).toBe("GEN-429-001");
    // carol verified lately: still verified, whatever the address spent
    expect(await attempt(b, "10.0.0.7", "valid-carol", "verified")).toBeUndefined();
    // known good lasts KNOWN_GOOD_MS
    advance(KNOWN_GOOD_MS - 60_000);
    expect(await attempt(b, "10.0.0.7", "valid-carol", "verified")).toBeUndefined();
    // another address has its own budgets
    expect(await attempt(b, "10.0.0.8", "garbage7", "failed")).toBeUndefined();
  });

  it("counts nothing for genuine expired tokens: an expiry wave behind one address is not an attack", async () => {
    const { budgets: b } = budgets();
    for (let i = 0; i < 50; i++) expect(await attempt(b, "10.0.0.5", `expired${i}`, "expired")).toBeUndefined();
    expect(await attempt(b, "10.0.0.5", "fresh", "verified")).toBeUndefined();
    // and not even the same expired token, retried
    for (let i = 0; i < 10; i++) expect(await attempt(b, "10.0.0.5", "expired0", "expired")).toBeUndefined();
  });
});

describe("presentedCredential", () => {
  it("names the credential headers as sent, one hash per set of values, and presentsCredential says whether it names any", () => {
    const cases: Record<string, string | string[] | undefined>[] = [
      {},
      { accept: "application/json" },
      { "x-platform-jwt": "a.b.c" },
      { "x-platform-jwt": " a.b.c " },
      { "x-platform-jwt": "a.b.d" },
      { "x-platform-orgid": "org_1:env_1" },
      { authorization: "Bearer key" },
      { "x-platform-pint-token": "p.i.nt" },
      { "x-platform-jwt": ["a.b.c", "other"] },
      { "x-platform-jwt": undefined },
    ];
    const names = cases.map(presentedCredential);
    cases.forEach((headers, i) => expect(presentsCredential(headers), JSON.stringify(headers)).toBe(names[i] !== undefined));
    expect(names.filter((name) => name !== undefined)).toHaveLength(7);
    // spaces around a value are not another credential, another value is; an array's first value counts
    expect(names[3]).toBe(names[2]);
    expect(names[8]).toBe(names[2]);
    expect(new Set([names[2], names[4], names[5], names[6], names[7]]).size).toBe(5);
    expect(names[2]).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});
