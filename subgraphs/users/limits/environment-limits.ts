import { limitFor, type EnvironmentLimits } from "../../../lib/environment-limits.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { UsersTx } from "../db.ts";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * Counting and inserting under one lock per environment, so parallel requests (on any instance:
 * the lock and the rows are in the database) cannot overshoot a limit. Taken after the user's
 * wallet lock where both are held, never before.
 */
async function lockEnvironment(tx: UsersTx, environmentId: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))::text`, `environment-limits:${environmentId}`);
}

/** Seconds until the oldest counted row leaves the window, so one more fits. */
function retryAfterSeconds(oldest: Date | null, windowMs: number, now: Date): number {
  if (!oldest) return 1;
  return Math.max(1, Math.ceil((oldest.getTime() + windowMs - now.getTime()) / 1000));
}

/**
 * POST /v0/user/: refuses with 429 USR-429-001 (and Retry-After) once the environment created
 * `users_per_hour` users in the last hour. Call inside the registration's transaction, before
 * writing anything.
 */
export async function assertUserCreationAllowed(tx: UsersTx, environmentId: string, limits: EnvironmentLimits, now: Date = new Date()): Promise<void> {
  const max = limitFor(limits, environmentId).users_per_hour;
  if (max === null) return;
  await lockEnvironment(tx, environmentId);
  const recent = await tx.user.aggregate({
    where: { environment_id: environmentId, created_at: { gt: new Date(now.getTime() - HOUR_MS) } },
    _count: { _all: true },
    _min: { created_at: true },
  });
  if (recent._count._all >= max)
    throw appError("USR-429-001", `This environment may create ${max} users per hour (ENVIRONMENT_LIMITS); retry later.`, {
      retryAfter: retryAfterSeconds(recent._min.created_at, HOUR_MS, now),
    });
}

export interface SafeDeploymentRecord {
  event_id: string;
  user_id: string;
  wallet_id: number;
  chain_id: number;
}

/**
 * Records one Safe deployment started for the user, or refuses with 429 WAL-429-001 (and
 * Retry-After) once the user's environment started `safe_deployments_per_day` in the last 24
 * hours. In the transaction that enqueues the deployment, so a refusal leaves nothing behind.
 */
export async function recordSafeDeployment(tx: UsersTx, deployment: SafeDeploymentRecord, limits: EnvironmentLimits, now: Date = new Date()): Promise<void> {
  const { environment_id } = await tx.user.findUniqueOrThrow({ where: { id: deployment.user_id }, select: { environment_id: true } });
  const max = limitFor(limits, environment_id).safe_deployments_per_day;
  if (max !== null) {
    await lockEnvironment(tx, environment_id);
    const recent = await tx.safeDeploymentRequest.aggregate({
      where: { environment_id, created_at: { gt: new Date(now.getTime() - DAY_MS) } },
      _count: { _all: true },
      _min: { created_at: true },
    });
    if (recent._count._all >= max)
      throw appError("WAL-429-001", `This environment may start ${max} Safe deployments per day (ENVIRONMENT_LIMITS); retry later.`, {
        retryAfter: retryAfterSeconds(recent._min.created_at, DAY_MS, now),
      });
  }
  await tx.safeDeploymentRequest.create({ data: { ...deployment, environment_id, created_at: now } });
}
