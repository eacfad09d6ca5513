import { describe, expect, it } from "vitest";
import { attemptVerdict, GIVE_UP_AFTER_MS, nextAttemptAt, retryAfterMs } from "../../subgraphs/identity/webhook-delivery/delivery-schedule.ts";

// Issue 29: at-least-once delivery with a schedule reaching three days, 410 disabling, Retry-After honoured.
const now = new Date("2026-11-26T12:00:00Z");
const HOUR = 3_600_000;

/** Every attempt fails: the times of all attempts until the schedule gives up. */
function attemptsOfAFailingDelivery(random: () => number, retry_after_ms: number | null = null): Date[] {
  const first = now;
  const times = [first];
  for (;;) {
    const next = nextAttemptAt({ attempts: times.length, first_attempt_at: first, now: times.at(-1)!, retry_after_ms, random });
    if (next === null) return times;
    times.push(next);
  }
}

describe("the retry schedule", () => {
  it("waits 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h, and gives up at the first failure three days after the first attempt", () => {
    const times = attemptsOfAFailingDelivery(() => 0.5);
    const waits = times.slice(1).map((time, i) => time.getTime() - times[i]!.getTime());
    expect(waits.slice(0, 6)).toEqual([5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR]);
    expect(waits.slice(6).every((wait) => wait === 10 * HOUR)).toBe(true);
    const last = times.at(-1)!.getTime() - now.getTime();
    expect(last).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS);
    expect(times.at(-2)!.getTime() - now.getTime()).toBeLessThan(GIVE_UP_AFTER_MS);
    expect(times).toHaveLength(13);
  });

  it("jitters each wait by at most 10 % either way, and still reaches three days at either extreme", () => {
    for (const random of [() => 0, () => 0.999999]) {
      const times = attemptsOfAFailingDelivery(random);
      expect(times.at(-1)!.getTime() - now.getTime()).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS);
      const firstWait = times[1]!.getTime() - now.getTime();
      expect(firstWait).toBeGreaterThanOrEqual(4_500);
      expect(firstWait).toBeLessThanOrEqual(5_500);
    }
  });

  it("never retries before Retry-After, and a shorter Retry-After does not hurry the schedule", () => {
    expect(nextAttemptAt({ attempts: 1, first_attempt_at: now, now, retry_after_ms: 120_000, random: () => 0.5 })).toEqual(new Date(now.getTime() + 120_000));
    expect(nextAttemptAt({ attempts: 3, first_attempt_at: now, now, retry_after_ms: 1_000, random: () => 0.5 })).toEqual(new Date(now.getTime() + 1_800_000));
  });
});

describe("what an attempt's answer means", () => {
  it("delivers on any 2xx, disables on 410, retries on everything else, timeouts and network errors included", () => {
    for (const status of [200, 201, 204, 299]) expect(attemptVerdict({ status, retry_after: null }, now)).toEqual({ kind: "delivered" });
    expect(attemptVerdict({ status: 410, retry_after: "60" }, now)).toEqual({ kind: "gone" });
    for (const status of [301, 400, 401, 404, 500]) expect(attemptVerdict({ status, retry_after: "60" }, now)).toEqual({ kind: "retry", retry_after_ms: null });
    expect(attemptVerdict({ error: "timeout after 10000 ms" }, now)).toEqual({ kind: "retry", retry_after_ms: null });
  });

  it("reads Retry-After on 429, 502, 503 and 504, as seconds or an HTTP date, capped at a day", () => {
    for (const status of [429, 502, 503, 504]) expect(attemptVerdict({ status, retry_after: "120" }, now)).toEqual({ kind: "retry", retry_after_ms: 120_000 });
    expect(attemptVerdict({ status: 503, retry_after: new Date(now.getTime() + 90_000).toUTCString() }, now)).toEqual({ kind: "retry", retry_after_ms: 90_000 });
    expect(retryAfterMs("999999", now)).toBe(86_400_000);
    for (const unreadable of ["0", "-5", "soon", "", "1.5", new Date(now.getTime() - 1000).toUTCString()]) expect(retryAfterMs(unreadable, now)).toBeNull();
  });
});
