/**
 * When an outgoing event is delivered again, and what a receiver's answer means (issue 29). The
 * schedule is Svix's, stretched to Stripe's three days: immediately, then 5 s, 5 min, 30 min, 2 h,
 * 5 h, and every 10 h until three days have passed since the first attempt (13 attempts, 12 to 14
 * with the jitter); each wait is jittered by ±10 % so endpoints that fail together do not retry together.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000];
/** A delivery still failing this long after its first attempt is given up (`failed`). */
export const GIVE_UP_AFTER_MS = 3 * 86_400_000;
export const JITTER = 0.1;
/** The longest `Retry-After` obeyed: a receiver cannot park a delivery for longer than a day. */
export const MAX_RETRY_AFTER_MS = 86_400_000;
/** One attempt's time limit, from connecting to the last byte of the answer. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Statuses whose `Retry-After` is obeyed (rate limited, or the receiver's own upstream is down). */
const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** What one attempt's outcome means for the delivery. */
export type AttemptVerdict =
  | { kind: "delivered" }
  /** 410 Gone: the receiver asks never to be called again; the endpoint is disabled */
  | { kind: "gone" }
  | { kind: "retry"; retry_after_ms: number | null };

/**
 * A 2xx delivers; 410 disables the endpoint; anything else (3xx included: redirects are not
 * followed, the endpoint's URL is the one checked), a timeout or a network error retries, not
 * before the `Retry-After` of a 429/502/503/504.
 */
export function attemptVerdict(outcome: { status: number; retry_after: string | null } | { error: string }, now: Date): AttemptVerdict {
  if ("error" in outcome) return { kind: "retry", retry_after_ms: null };
  if (outcome.status >= 200 && outcome.status < 300) return { kind: "delivered" };
  if (outcome.status === 410) return { kind: "gone" };
  const retryAfter = RETRY_AFTER_STATUSES.has(outcome.status) && outcome.retry_after !== null ? retryAfterMs(outcome.retry_after, now) : null;
  return { kind: "retry", retry_after_ms: retryAfter };
}

/** `Retry-After` as delay-seconds or an HTTP date, in ms from `now` (capped at a day); null when unreadable or already past. */
export function retryAfterMs(value: string, now: Date): number | null {
  const text = value.trim();
  const ms = /^\d{1,10}$/.test(text) ? Number(text) * 1000 : /[a-z]/i.test(text) ? Date.parse(text) - now.getTime() : Number.NaN;
  if (!Number.isFinite(ms) || ms <= 0) return null;
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/**
 * When to try again after the `attempts`-th attempt failed (1 after the first), or null to give
 * up: a failure at or after three days since the first attempt is the last. The wait is the
 * schedule's (jittered; `random` in [0, 1)), never shorter than what `Retry-After` asked.
 */
export function nextAttemptAt(options: { attempts: number; first_attempt_at: Date; now: Date; retry_after_ms?: number | null; random?: () => number }): Date | null {
  const { attempts, first_attempt_at, now } = options;
  if (now.getTime() - first_attempt_at.getTime() >= GIVE_UP_AFTER_MS) return null;
  const scheduled = RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1]!;
  const jittered = Math.round(scheduled * (1 - JITTER + 2 * JITTER * (options.random ?? Math.random)()));
  return new Date(now.getTime() + Math.max(jittered, options.retry_after_ms ?? 0));
}
