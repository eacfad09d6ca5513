import { ConfigError } from "../config-error.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { applyMigrations } from "../db/migrations.ts";
import { createRateLimiter, type RateLimitRuleName, type RateLimitRules } from "./config.ts";
import { rateLimitError, type RateLimitDecision, type RateLimiter } from "./rate-limiter.ts";
import type { Logger } from "../logger.ts";

/**
 * The one rate-limiting mechanism of a process: a limiter (memory, or PostgreSQL shared by every
 * instance) and the named rules. Every surface consumes from it: the adapter and GraphQL listeners
 * per client address for requests without a credential, the gateway per user and per API key,
 * the RPC host per key, the PINT exchange per key.
 */
export interface RateLimits {
  limiter: RateLimiter;
  rules: RateLimitRules;
  /** told when the store fails; the request then goes through (see `limit`) */
  onStoreError?: (error: unknown) => void;
}

/**
 * The process's rate limits from configuration: on the PostgreSQL store they live in the
 * `ratelimit` schema of `database` (its migration is applied here), shared by every instance.
 */
export async function rateLimitsFor(config: Pick<Config, "rateLimits">, database?: Database, logger?: Logger): Promise<RateLimits> {
  if (config.rateLimits.store === "postgres") {
    if (!database) throw new ConfigError("RATE_LIMIT_STORE", "postgres needs DATABASE_URL in this process");
    await applyMigrations(database, ["ratelimit"]);
  }
  return {
    limiter: createRateLimiter({ store: config.rateLimits.store, ...(database && { database }) }),
    rules: config.rateLimits.rules,
    ...(logger && { onStoreError: (error: unknown) => logger.warn({ err: error }, "rate-limit store failed; request allowed") }),
  };
}

/**
 * Refuses with 429 (Retry-After) once `key` has spent `rule`. When the store itself fails (the
 * database is down) the request goes through: an outage of the limiter must not become an outage
 * of the API, and /health must still be able to report the database as down.
 */
export async function limit(rateLimits: RateLimits, key: string, rule: RateLimitRuleName): Promise<void> {
  let decision: RateLimitDecision;
  try {
    decision = await rateLimits.limiter.consume(key, rateLimits.rules[rule]);
  } catch (error) {
    rateLimits.onStoreError?.(error);
    return;
  }
  if (!decision.allowed) throw rateLimitError(decision);
}
