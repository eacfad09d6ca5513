// One rate-limiting mechanism for every surface (per API key, per user, per IP, PINT exchange,
// RPC): in memory in the embedded mode, shared through PostgreSQL when several instances run.
//
// Algorithm: a FIXED WINDOW per key, anchored at the key's first consume (not at the clock's
// minute), counting admitted units:
// - a consume whose window has ended starts a new one at `now` lasting `windowMs`;
// - it is admitted when `count + cost <= limit`, and only then adds `cost`; a refused consume
//   adds nothing, so being throttled never extends the throttling;
// - a refused caller retries after the window ends (`resetAt`), when its full limit is back.
// Why fixed rather than a sliding-window approximation: the guarantee is exact and easy to state
// (never more than `limit` admitted units per window of a key, whatever the concurrency; several
// processes sharing the PostgreSQL store add a small, stated allowance: postgres-rate-limiter.ts),
// it takes one row per key, and Retry-After is exact rather than an estimate (a sliding
// approximation weighs the previous window by an assumed uniform spread, so it is neither exact
// nor cheap to invert for Retry-After). The price is the known boundary burst: up to 2 × limit within any span of
// `windowMs` that straddles two windows; anchoring windows per key at least keeps keys from
// all resetting at the same instant.
import { recordRateLimitRefusal } from "../metrics.ts";
import { AppError } from "../errors/app-error.ts";

export interface RateLimitRule {
  /** units admitted per window; a positive integer */
  limit: number;
  /** window length in milliseconds; a positive integer */
  windowMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** units still admissible in the current window after this consume */
  remaining: number;
  /** 0 when allowed; otherwise whole seconds until the window ends, rounded up, at least 1 */
  retryAfterSeconds: number;
  /** when the current window ends and the full limit is available again */
  resetAt: Date;
}

export interface RateLimiter {
  /**
   * Takes `cost` units (default 1) from `key`'s budget under `rule`, or refuses without taking
   * any. Keys are opaque: prefix them with the rule's name (`api_key:<key id>`, `ip:<address>`)
   * so surfaces never share a budget, and never pass a secret (use a key id or hash). A key must
   * always be used with the same rule. A cost above `rule.limit` is always refused.
   */
  consume(key: string, rule: RateLimitRule, cost?: number): Promise<RateLimitDecision>;
  /** Whether one more unit of `key` would be admitted now, without taking it (a "slow down" check). */
  peek(key: string, rule: RateLimitRule): Promise<RateLimitDecision>;
  /** Releases timers and writes what is pending (stores that batch); the limiter is not used after. */
  close?(): Promise<void>;
  /** Stores outside the process (PostgreSQL): throws while the store cannot be read (GET /health). */
  ping?(): Promise<void>;
}

/** The largest limit a rule may have (the PostgreSQL store counts in an int column). */
export const MAX_RATE_LIMIT = 2_147_483_647;

/** Throws RangeError for a rule or cost no limiter can apply (a programming error). */
export function checkConsumeArguments(key: string, rule: RateLimitRule, cost: number): void {
  if (typeof key !== "string" || key.length === 0) throw new RangeError("rate limit key must be a non-empty string");
  if (!Number.isSafeInteger(rule.limit) || rule.limit < 1 || rule.limit > MAX_RATE_LIMIT)
    throw new RangeError(`rate limit must be an integer from 1 to ${MAX_RATE_LIMIT}, got ${rule.limit}`);
  if (!Number.isSafeInteger(rule.windowMs) || rule.windowMs < 1) throw new RangeError(`rate limit window must be a positive integer of milliseconds, got ${rule.windowMs}`);
  if (!Number.isSafeInteger(cost) || cost < 1) throw new RangeError(`rate limit cost must be a positive integer, got ${cost}`);
}

/** The decision for a window ending at `resetAtMs` holding `count` units, seen at `nowMs`. */
export function decision(allowed: boolean, count: number, limit: number, resetAtMs: number, nowMs: number): RateLimitDecision {
  return {
    allowed,
    remaining: Math.max(0, limit - count),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)),
    resetAt: new Date(resetAtMs),
  };
}

/** The catalogue's 429 (GEN-429-001) for a refused decision of `rule`; the adapter sets Retry-After from it. */
export function rateLimitError(refused: RateLimitDecision, rule: string): AppError {
  recordRateLimitRefusal(rule);
  return new AppError("GEN-429-001", { retryAfter: Math.max(1, refused.retryAfterSeconds) });
}
