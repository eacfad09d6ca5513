import { DEFAULT_ENVIRONMENT_ID } from "../../../lib/auth/orgid.ts";
import { limitFor, type EnvironmentLimit, type EnvironmentLimits } from "../../../lib/environment-limits.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { ErrorCode } from "../../../lib/errors/catalogue.ts";
import type { UsersTx } from "../db.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Which environments' rows one limit counts: one environment, or every organisation environment. */
type EnvironmentFilter = string | { not: string };

interface Scope {
  /** names the advisory lock and the refusal */
  name: string;
  max: number;
  environments: EnvironmentFilter;
}

/**
 * The limits a new row of `environmentId` must fit: its environment's own and, for organisation
 * environments, the ceiling of all organisation environments together.
 */
function scopesOf(limits: EnvironmentLimits, environmentId: string, field: keyof EnvironmentLimit): Scope[] {
  const scopes: { name: string; max: number | null; environments: EnvironmentFilter }[] = [
    { name: `environment ${environmentId}`, max: limitFor(limits, environmentId)[field], environments: environmentId },
  ];
  if (environmentId !== DEFAULT_ENVIRONMENT_ID)
    scopes.push({ name: "organisation environments together", max: limits.organisations[field], environments: { not: DEFAULT_ENVIRONMENT_ID } });
  return scopes.filter((scope): scope is Scope => scope.max !== null);
}

/**
 * Counts the rows of each scope in the window and refuses once one is full. Counting and
 * inserting happen under one lock per scope, taken in a fixed order (own environment, then all
 * organisations), so parallel requests on any instance cannot overshoot a limit. Taken after the
 * user's wallet lock where both are held, never before.
 */
async function assertWithin(
  tx: UsersTx,
  scopes: Scope[],
  windowMs: number,
  now: Date,
  count: (environments: EnvironmentFilter, since: Date) => Promise<{ count: number; oldest: Date | null }>,
  refuse: { code: ErrorCode; what: string },
): Promise<void> {
  for (const scope of scopes) {
    await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))::text`, `environment-limits:${scope.name}`);
    const recent = await count(scope.environments, new Date(now.getTime() - windowMs));
    if (recent.count >= scope.max) {
      const retryAfter = recent.oldest ? Math.max(1, Math.ceil((recent.oldest.getTime() + windowMs - now.getTime()) / 1000)) : 1;
      throw appError(refuse.code, `The ${scope.name} may ${refuse.what.replace("{max}", String(scope.max))} (ENVIRONMENT_LIMITS); retry later.`, { retryAfter });
    }
  }
}

/**
 * POST /v0/user/: refuses with 429 USR-429-001 (and Retry-After) once the environment, or all
 * organisation environments together, created their `users_per_hour` in the last hour. Call
 * inside the registration's transaction, before writing anything.
 */
export async function assertUserCreationAllowed(tx: UsersTx, environmentId: string, limits: EnvironmentLimits, now: Date = new Date()): Promise<void> {
  await assertWithin(
    tx,
    scopesOf(limits, environmentId, "users_per_hour"),
    HOUR_MS,
    now,
    async (environment_id, since) => {
      const recent = await tx.user.aggregate({ where: { environment_id, created_at: { gt: since } }, _count: { _all: true }, _min: { created_at: true } });
      return { count: recent._count._all, oldest: recent._min.created_at };
    },
    { code: "USR-429-001", what: "create {max} users per hour" },
  );
}

export interface SafeDeploymentRecord {
  event_id: string;
  user_id: string;
  wallet_id: number;
  chain_id: number;
}

/**
 * Records one Safe deployment started for the user, or refuses with 429 WAL-429-001 (and
 * Retry-After) once the user's environment, or all organisation environments together, started
 * their `safe_deployments_per_day` in the last 24 hours. In the transaction that enqueues the
 * deployment, so a refusal leaves nothing behind.
 */
export async function recordSafeDeployment(tx: UsersTx, deployment: SafeDeploymentRecord, limits: EnvironmentLimits, now: Date = new Date()): Promise<void> {
  const { environment_id } = await tx.user.findUniqueOrThrow({ where: { id: deployment.user_id }, select: { environment_id: true } });
  await assertWithin(
    tx,
    scopesOf(limits, environment_id, "safe_deployments_per_day"),
    DAY_MS,
    now,
    async (environments, since) => {
      const recent = await tx.safeDeploymentRequest.aggregate({
        where: { environment_id: environments, created_at: { gt: since } },
        _count: { _all: true },
        _min: { created_at: true },
      });
      return { count: recent._count._all, oldest: recent._min.created_at };
    },
    { code: "WAL-429-001", what: "start {max} Safe deployments per day" },
  );
  await tx.safeDeploymentRequest.create({ data: { ...deployment, environment_id, created_at: now } });
}
