import { ConfigError } from "../config-error.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { applyMigrations } from "../db/migrations.ts";
import { createRateLimiter, type RateLimitRuleName, type RateLimitRules } from "./config.ts";
import { FailOpenRateLimiter } from "./fail-open-rate-limiter.ts";
import { rateLimitError, type RateLimiter } from "./rate-limiter.ts";
import type { Logger } from "../logger.ts";

/**
 * The one rate-limiting mechanism of a process: a limiter (memory, or PostgreSQL shared by every
 * instance) and the named rules. Every surface consumes from it: the adapter and the public
 * GraphQL listener per client address until a credential verifies, the gateway's Authenticator
 * per user and per API key (and failed verifications per address and per presented credential),
 * the RPC host per key, the PINT exchange per key.
 */
export interface RateLimits {
  limiter: RateLimiter;
  rules: RateLimitRules;
}

/**
 * The process's rate limits from configuration: on the PostgreSQL store they live in the
 * `ratelimit` schema of `database` (its migration is applied here), shared by every instance.
 * The limiter fails open (FailOpenRateLimiter): when its store fails, requests go through on
 * every surface alike and `logger` gets a warning.
 */
export async function rateLimitsFor(config: Pick<Config, "rateLimits">, database?: Database, logger?: Logger): Promise<RateLimits> {
  if (config.rateLimits.store === "postgres") {
    if (!database) throw new ConfigError("RATE_LIMIT_STORE", "postgres needs DATABASE_URL in this process");
    await applyMigrations(database, ["ratelimit"]);
  }
  const store = createRateLimiter({ store: config.rateLimits.store, ...(database && { database }) });
  return {
    limiter: new FailOpenRateLimiter(store, (error, key) => logger?.warn({ err: error, rate_limit_key: key.slice(0, key.indexOf(":") + 1) }, "rate-limit store failed; request allowed")),
    rules: config.rateLimits.rules,
  };
}

/** Refuses with 429 (Retry-After) once `key` has spent `rule`; `cost` units at once (default 1). */
export async function limit(rateLimits: RateLimits, key: string, rule: RateLimitRuleName, cost = 1): Promise<void> {
  const decision = await rateLimits.limiter.consume(key, rateLimits.rules[rule], cost);
  if (!decision.allowed) throw rateLimitError(decision, rule);
}
