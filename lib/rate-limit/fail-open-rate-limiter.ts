// The one failure policy of every surface (REST, /graphql, identity host, RPC host, PINT
// exchange): when the store fails (the database is down), the request goes through and the
// failure is reported. An outage of the limiter must not become an outage of the API, and
// /health must still be able to report the database as down. `rateLimitsFor` wraps every
// process's limiter in it, so no surface can choose differently by calling the store directly.
import { oneAtATime } from "../health.ts";
import { checkConsumeArguments, decision, type RateLimitDecision, type RateLimitRule, type RateLimiter } from "./rate-limiter.ts";

export class FailOpenRateLimiter implements RateLimiter {
  /** the store's own, not failing open (and shared while under way, lib/health.ts): /health reports the store as it is; absent for an in-memory store */
  readonly ping?: () => Promise<void>;

  constructor(
    readonly store: RateLimiter,
    /** told of each failure; the caller's request then goes through */
    private readonly onStoreError: (error: unknown, key: string) => void = () => {},
  ) {
    if (store.ping) this.ping = oneAtATime(() => store.ping!());
  }

  consume(key: string, rule: RateLimitRule, cost = 1): Promise<RateLimitDecision> {
    return this.guard(key, rule, cost, () => this.store.consume(key, rule, cost));
  }

  peek(key: string, rule: RateLimitRule): Promise<RateLimitDecision> {
    return this.guard(key, rule, 1, () => this.store.peek(key, rule));
  }

  async close(): Promise<void> {
    await this.store.close?.();
  }

  private async guard(key: string, rule: RateLimitRule, cost: number, call: () => Promise<RateLimitDecision>): Promise<RateLimitDecision> {
    // a bad rule or cost is a programming error, not a store failure: it still throws
    checkConsumeArguments(key, rule, cost);
    try {
      return await call();
    } catch (error) {
      this.onStoreError(error, key);
      const now = Date.now();
      return decision(true, 0, rule.limit, now + rule.windowMs, now);
    }
  }
}
