// The embedded-mode limiter: fixed windows (see rate-limiter.ts) in a Map. consume() runs
// synchronously to completion, so concurrent callers in this process are serialised and the
// limit is exact. Memory is bounded: expired windows are swept at most once per
// `sweepIntervalMs`, and a new key beyond `maxKeys` drops the oldest window (its key starts
// afresh: fail open for it, rather than refusing keys never seen).
import { checkConsumeArguments, decision, type RateLimitDecision, type RateLimitRule, type RateLimiter } from "./rate-limiter.ts";

export interface MemoryRateLimiterOptions {
  /** milliseconds since the epoch; Date.now by default */
  clock?: () => number;
  /** at most this many keys are tracked (default 100,000) */
  maxKeys?: number;
  /** how often expired windows are swept (default one minute) */
  sweepIntervalMs?: number;
}

interface Bucket {
  count: number;
  expiresAt: number;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly clock: () => number;
  private readonly maxKeys: number;
  private readonly sweepIntervalMs: number;
  private lastSweep: number;

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.maxKeys = options.maxKeys ?? 100_000;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 60_000;
    if (!Number.isSafeInteger(this.maxKeys) || this.maxKeys < 1) throw new RangeError(`maxKeys must be a positive integer, got ${this.maxKeys}`);
    this.lastSweep = this.clock();
  }

  /** keys currently tracked (live or not yet swept) */
  get size(): number {
    return this.buckets.size;
  }

  async consume(key: string, rule: RateLimitRule, cost = 1): Promise<RateLimitDecision> {
    checkConsumeArguments(key, rule, cost);
    const now = this.clock();
    if (now - this.lastSweep >= this.sweepIntervalMs) this.sweep(now);

    let bucket = this.buckets.get(key);
    if (!bucket || bucket.expiresAt <= now) {
      // Re-inserted so the Map's order stays roughly oldest window first, for eviction.
      if (bucket) this.buckets.delete(key);
      else if (this.buckets.size >= this.maxKeys) this.evictOldest();
      bucket = { count: 0, expiresAt: now + rule.windowMs };
      this.buckets.set(key, bucket);
    }
    const allowed = bucket.count + cost <= rule.limit;
    if (allowed) bucket.count += cost;
    return decision(allowed, bucket.count, rule.limit, bucket.expiresAt, now);
  }

  async peek(key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    checkConsumeArguments(key, rule, 1);
    const now = this.clock();
    const bucket = this.buckets.get(key);
    if (!bucket || bucket.expiresAt <= now) return decision(true, 0, rule.limit, now + rule.windowMs, now);
    return decision(bucket.count + 1 <= rule.limit, bucket.count, rule.limit, bucket.expiresAt, now);
  }

  /** Drops every expired window; returns how many. */
  sweep(now = this.clock()): number {
    this.lastSweep = now;
    let removed = 0;
    for (const [key, bucket] of this.buckets) {
      if (bucket.expiresAt <= now) {
        this.buckets.delete(key);
        removed++;
      }
    }
    return removed;
  }

  // O(1), since a flood of new keys calls it on every consume: the first key in the Map has the
  // oldest window (windows are re-inserted when they restart), the likeliest to have ended.
  private evictOldest(): void {
    const oldest = this.buckets.keys().next();
    if (!oldest.done) this.buckets.delete(oldest.value);
  }
}
