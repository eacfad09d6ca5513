// ENVIRONMENT_LIMITS: how many users and Safe deployments each environment may create, because
// anyone who can create an organisation can mint JWTs for any subject in their own environment,
// and every user costs a Safe deployment paid by SAFE_DEPLOYER_KEY.
//
//   {"users_per_hour": 100, "safe_deployments_per_day": 100,
//    "overrides": {"default": {"users_per_hour": 1000}, "<org-id>:<env-id>": {"safe_deployments_per_day": 5000}},
//    "organisations": {"users_per_hour": 1000, "safe_deployments_per_day": 500}}
//
// The top-level numbers apply to every environment on its own; `overrides` (keyed by environment
// id, `default` for the AUTH_PROVIDERS environment) replaces fields for one environment.
// `organisations` bounds every organisation environment together: anyone who can sign in to the
// dashboard can create organisations and environments, so per-environment limits alone would
// multiply with them; the operator's `default` environment is outside it, so organisations
// spending it never block the operator's own users. A number is a positive integer; null means
// no limit. Unset fields keep the defaults below.
import { ConfigError } from "./config-error.ts";
import { envText, isRecord, type Env } from "./parse.ts";

export interface EnvironmentLimit {
  /** users created in the environment in any rolling hour; null: unlimited */
  users_per_hour: number | null;
  /** Safe deployments started for the environment's users in any rolling 24 hours; null: unlimited */
  safe_deployments_per_day: number | null;
}

export interface EnvironmentLimits {
  base: EnvironmentLimit;
  overrides: Record<string, Partial<EnvironmentLimit>>;
  /** every organisation environment (all but `default`) together */
  organisations: EnvironmentLimit;
}

const FIELDS = ["users_per_hour", "safe_deployments_per_day"] as const;

/** Organisation environments get the base; the operator's own default environment more. */
export const DEFAULT_ENVIRONMENT_LIMITS: Readonly<EnvironmentLimits> = Object.freeze({
  base: { users_per_hour: 100, safe_deployments_per_day: 100 },
  overrides: { default: { users_per_hour: 1000, safe_deployments_per_day: 1000 } },
  organisations: { users_per_hour: 1000, safe_deployments_per_day: 500 },
});

/** The limits that hold for one environment. */
export function limitFor(limits: EnvironmentLimits, environmentId: string): EnvironmentLimit {
  return { ...limits.base, ...limits.overrides[environmentId] };
}

function fail(problem: string): never {
  throw new ConfigError("ENVIRONMENT_LIMITS", problem);
}

function parseLimit(value: unknown, where: string): Partial<EnvironmentLimit> {
  if (!isRecord(value)) return fail(`${where}: expected an object like {"users_per_hour": 100, "safe_deployments_per_day": 100}`);
  const limit: Partial<EnvironmentLimit> = {};
  for (const [field, amount] of Object.entries(value)) {
    if (!(FIELDS as readonly string[]).includes(field)) fail(`${where}: unknown field "${field}" (expected ${FIELDS.join(", ")})`);
    if (amount !== null && !(Number.isInteger(amount) && (amount as number) >= 1 && (amount as number) <= 2 ** 31 - 1))
      fail(`${where}.${field}: expected a positive integer or null, got ${JSON.stringify(amount)}`);
    limit[field as (typeof FIELDS)[number]] = amount as number | null;
  }
  return limit;
}

export function loadEnvironmentLimits(env: Env): EnvironmentLimits {
  const raw = envText(env, "ENVIRONMENT_LIMITS");
  const limits: EnvironmentLimits = {
    base: { ...DEFAULT_ENVIRONMENT_LIMITS.base },
    overrides: Object.fromEntries(Object.entries(DEFAULT_ENVIRONMENT_LIMITS.overrides).map(([id, limit]) => [id, { ...limit }])),
    organisations: { ...DEFAULT_ENVIRONMENT_LIMITS.organisations },
  };
  if (raw === undefined) return limits;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    fail(`expected JSON, ${(error as Error).message}`);
  }
  if (!isRecord(parsed)) fail("expected a JSON object");
  const { overrides, organisations, ...base } = parsed as Record<string, unknown>;
  Object.assign(limits.base, parseLimit(base, "ENVIRONMENT_LIMITS"));
  if (organisations !== undefined) Object.assign(limits.organisations, parseLimit(organisations, "organisations"));
  if (overrides !== undefined) {
    if (!isRecord(overrides)) fail('overrides: expected an object keyed by environment id ("default" or "<org-id>:<env-id>")');
    for (const [id, value] of Object.entries(overrides)) limits.overrides[id] = { ...limits.overrides[id], ...parseLimit(value, `overrides.${id}`) };
  }
  return limits;
}
