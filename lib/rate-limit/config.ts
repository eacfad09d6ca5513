// Rate-limit configuration from the environment, and the limiter it selects.
//
//   RATE_LIMITS       JSON object overriding the named rules, each field optional:
//                     {"api_key": {"limit": 600, "window_seconds": 60}, "ip": {"limit": 100}}
//                     names: api_key, user, ip, auth_failure, auth_failure_address, auth_verification,
//                     pint_exchange, rpc; limit an integer 1…2^31-1,
//                     window_seconds a positive integer. Unset: the defaults below.
//   RATE_LIMIT_STORE  memory | postgres. Unset: postgres when DATABASE_URL is set (instances
//                     share their budgets), memory otherwise (embedded mode, one process).
import { ConfigError } from "../config-error.ts";
import { envText, isRecord, type Env } from "../parse.ts";
import type { Queryable } from "../db/database.ts";
import { MemoryRateLimiter } from "./memory-rate-limiter.ts";
import { PostgresRateLimiter } from "./postgres-rate-limiter.ts";
import { MAX_RATE_LIMIT, type RateLimitRule, type RateLimiter } from "./rate-limiter.ts";

export const RATE_LIMIT_RULE_NAMES = ["api_key", "user", "ip", "auth_failure", "auth_failure_address", "auth_verification", "pint_exchange", "rpc"] as const;
export type RateLimitRuleName = (typeof RATE_LIMIT_RULE_NAMES)[number];
export type RateLimitRules = Record<RateLimitRuleName, RateLimitRule>;

export const RATE_LIMIT_STORES = ["memory", "postgres"] as const;
export type RateLimitStore = (typeof RATE_LIMIT_STORES)[number];

/** Per minute unless configured otherwise. */
export const DEFAULT_RATE_LIMITS: Readonly<RateLimitRules> = Object.freeze({
  // requests authenticated by an organisation's API key
  api_key: { limit: 600, windowMs: 60_000 },
  // requests authenticated as a user (JWT or personal access token)
  user: { limit: 300, windowMs: 60_000 },
  // requests whose credential has not verified (none sent, or a credential-free route), by client address
  ip: { limit: 300, windowMs: 60_000 },
  // failed verifications of one presented credential; once spent, that credential is refused
  // before any verification work (gateway/auth-failures.ts)
  auth_failure: { limit: 20, windowMs: 60_000 },
  // failed verifications per client address: high, because many clients may share one address
  // (a NAT, a backend relaying its users' tokens); once spent, the address's failing attempts are
  // answered 429, while a credential that verifies still passes
  auth_failure_address: { limit: 600, windowMs: 60_000 },
  // verifications of credentials not known good, per client address once it is over its failure
  // budget: bounds the CPU garbage from one address costs
  auth_verification: { limit: 120, windowMs: 60_000 },
  // PINT token exchanges: each mints a credential, so far fewer
  pint_exchange: { limit: 30, windowMs: 60_000 },
  // RPC host calls (wallet and dapp traffic is chatty)
  rpc: { limit: 1200, windowMs: 60_000 },
});

export interface RateLimitConfig {
  store: RateLimitStore;
  rules: RateLimitRules;
}


function parseRules(raw: string | undefined): RateLimitRules {
  const rules = Object.fromEntries(RATE_LIMIT_RULE_NAMES.map((name) => [name, { ...DEFAULT_RATE_LIMITS[name] }])) as RateLimitRules;
  if (raw === undefined) return rules;
  const fail = (problem: string): never => {
    throw new ConfigError("RATE_LIMITS", problem);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    fail(`expected JSON, ${(error as Error).message}`);
  }
  if (!isRecord(parsed)) return fail(`expected a JSON object keyed by ${RATE_LIMIT_RULE_NAMES.join(", ")}`);
  for (const [name, value] of Object.entries(parsed)) {
    if (!(RATE_LIMIT_RULE_NAMES as readonly string[]).includes(name)) fail(`unknown rule "${name}" (expected ${RATE_LIMIT_RULE_NAMES.join(", ")})`);
    if (!isRecord(value)) return fail(`${name}: expected an object like {"limit": 600, "window_seconds": 60}`);
    const rule = rules[name as RateLimitRuleName];
    for (const [field, fieldValue] of Object.entries(value)) {
      if (field === "limit") {
        if (typeof fieldValue !== "number" || !Number.isInteger(fieldValue) || fieldValue < 1 || fieldValue > MAX_RATE_LIMIT)
          fail(`${name}.limit: expected an integer from 1 to ${MAX_RATE_LIMIT}, got ${JSON.stringify(fieldValue)}`);
        rule.limit = fieldValue as number;
      } else if (field === "window_seconds") {
        if (typeof fieldValue !== "number" || !Number.isInteger(fieldValue) || fieldValue < 1 || !Number.isSafeInteger(fieldValue * 1000))
          fail(`${name}.window_seconds: expected a positive integer, got ${JSON.stringify(fieldValue)}`);
        rule.windowMs = (fieldValue as number) * 1000;
      } else {
        fail(`${name}: unknown field "${field}" (expected limit, window_seconds)`);
      }
    }
  }
  return rules;
}

function parseStore(env: Env): RateLimitStore {
  const raw = envText(env, "RATE_LIMIT_STORE")?.toLowerCase();
  if (raw === undefined) return envText(env, "DATABASE_URL") !== undefined ? "postgres" : "memory";
  if (!(RATE_LIMIT_STORES as readonly string[]).includes(raw)) throw new ConfigError("RATE_LIMIT_STORE", `expected memory or postgres, got "${raw}"`);
  return raw as RateLimitStore;
}

/** Reads RATE_LIMITS and RATE_LIMIT_STORE; throws ConfigError naming the variable on bad input. */
export function loadRateLimitConfig(env: Env = process.env): RateLimitConfig {
  return { store: parseStore(env), rules: parseRules(envText(env, "RATE_LIMITS")) };
}

export interface CreateRateLimiterOptions {
  store: RateLimitStore;
  /** the process's Database; required for the postgres store (migrated with the `ratelimit` set) */
  database?: Queryable;
  /** milliseconds since the epoch, for tests; postgres otherwise uses the database's clock */
  clock?: () => number;
}

/** One limiter per process, shared by every surface (keys prefixed with the rule name). */
export function createRateLimiter(options: CreateRateLimiterOptions): RateLimiter {
  if (options.store === "memory") return new MemoryRateLimiter({ ...(options.clock && { clock: options.clock }) });
  if (!options.database) throw new Error("createRateLimiter: the postgres store needs the database");
  return new PostgresRateLimiter({ database: options.database, ...(options.clock && { clock: options.clock }) });
}
