import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import { SUBGRAPH_NAMES } from "../../lib/graphql/subgraph-registry.ts";
import { failingChecks, oneAtATime, probe } from "../../lib/health.ts";
import { FailOpenRateLimiter } from "../../lib/rate-limit/fail-open-rate-limiter.ts";
import { MemoryRateLimiter } from "../../lib/rate-limit/memory-rate-limiter.ts";
import { DEFAULT_RATE_LIMITS } from "../../lib/rate-limit/config.ts";
import { healthResult, processHealthChecks } from "../../rest-adapter/routes/health.ts";

const allOk = () => Object.fromEntries(SUBGRAPH_NAMES.map((name) => [name, { name: `${name} database`, status: "ok" as const }]));

describe("health checks", () => {
  it("probe: ok when the ping answers, unavailable (without its error) when it throws", async () => {
    expect(await probe("x store", async () => 1)).toEqual({ name: "x store", status: "ok" });
    expect(await probe("x store", async () => Promise.reject(new Error("ECONNREFUSED 10.0.0.1")))).toEqual({ name: "x store", status: "unavailable" });
    expect(failingChecks([{ name: "a", status: "ok" }, { name: "b", status: "unavailable" }])).toEqual(["b"]);
  });

  it("probe: a store that does not answer in time is unavailable then, whatever it does later", async () => {
    const started = Date.now();
    expect(await probe("x store", () => new Promise(() => {}), 50)).toEqual({ name: "x store", status: "unavailable" });
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("oneAtATime: checks asked while one ping is under way share it; the next one after it pings again", async () => {
    let pings = 0;
    let answer: () => void = () => {};
    const ping = oneAtATime(() => {
      pings++;
      return new Promise<void>((resolve) => (answer = resolve));
    });
    const first = ping();
    const second = ping();
    expect(pings).toBe(1);
    answer();
    await Promise.all([first, second]);
    void ping();
    expect(pings).toBe(2);
    answer();
  });

  it("GET /health's body: the documented {status, database} when every check is ok", () => {
    expect(healthResult({ health: allOk(), process_checks: [{ name: "rate-limit store", status: "ok" }] })).toEqual({ status: "ok", database: "ok" });
  });

  it("503 GEN-503-001 naming every failing check; a subgraph that did not answer counts as unavailable", () => {
    const health: Record<string, unknown> = { ...allOk(), finance: null };
    delete health.agents;
    let error: unknown;
    try {
      healthResult({ health: health as never, process_checks: [{ name: "rate-limit store", status: "unavailable" }] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "GEN-503-001", status: 503, detail: "Unavailable: finance database, agents database, rate-limit store." });
  });

  it("an in-memory rate-limit store is no check (the PostgreSQL one is, test/e2e/health/health.test.ts)", async () => {
    const memory = new FailOpenRateLimiter(new MemoryRateLimiter());
    expect(await processHealthChecks({ limiter: memory, rules: DEFAULT_RATE_LIMITS })).toEqual([]);
    expect(await processHealthChecks(undefined)).toEqual([]);
  });
});
