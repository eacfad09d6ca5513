import type { JwksUriPolicy } from "../../../lib/auth/jwks-fetch.ts";
import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { IdentityDb } from "../db.ts";
import { requireMembership } from "../organisations/membership.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { storedAuthProviders, validateAuthProviders } from "./auth-providers.ts";
import { environmentView } from "./environment-view.ts";
import type { EnvironmentKind } from "../../../lib/auth/api-key.ts";

async function liveEnvironment(db: IdentityDb, orgId: string, envId: string) {
  const row = await db.environment.findFirst({ where: { id: envId, organisation_id: orgId, deleted_at: null } });
  if (!row) throw appError("IDS-404-001", `Environment ${envId} was not found.`);
  return row;
}

export interface EnvironmentAuthInput {
  /** AUTH_PROVIDERS-shaped entries; validated like AUTH_PROVIDERS (auth-providers.ts) */
  auth_providers?: unknown[] | null;
  auth_is_active?: boolean | null;
}

/** JWKS_ALLOW_LOOPBACK_HTTP as the identity service was configured with it */
export type EnvironmentAuthPolicy = { jwksPolicy: JwksUriPolicy };

/** POST /v0/organisation/{org_id}/environments: owners and admins; `auth_providers` default to none. */
export async function createEnvironment(
  db: IdentityDb,
  principal: DashboardPrincipal,
  orgId: string,
  input: { name: string; label?: string | null; kind?: EnvironmentKind | null } & EnvironmentAuthInput,
  policy: EnvironmentAuthPolicy,
) {
  const kind = input.kind ?? "test";
  await requireMembership(db, principal, orgId, "admin");
  const providers = input.auth_providers != null ? validateAuthProviders(input.auth_providers, policy.jwksPolicy) : [];
  const row = await db.environment.create({
    data: {
      id: newId("env"),
      organisation_id: orgId,
      name: input.name,
      label: input.label ?? null,
      kind,
      auth_providers: providers as unknown as Prisma.InputJsonValue,
      ...(input.auth_is_active != null && { auth_is_active: input.auth_is_active }),
    },
  });
  return environmentView(row);
}

/**
 * PATCH /v0/organisation/{org_id}/environments/{env_id}: owners and admins. `auth_providers`
 * replaces the whole list; a change to it or to `auth_is_active` moves `auth.updated_at` and
 * reaches the gateway within its environment cache TTL (ENVIRONMENT_CACHE_TTL_MS, 30 s).
 */
export async function updateEnvironment(
  db: IdentityDb,
  principal: DashboardPrincipal,
  orgId: string,
  envId: string,
  input: { name?: string | null; label?: string | null } & EnvironmentAuthInput,
  policy: EnvironmentAuthPolicy,
) {
  await requireMembership(db, principal, orgId, "admin");
  await liveEnvironment(db, orgId, envId);
  const providers = input.auth_providers != null ? validateAuthProviders(input.auth_providers, policy.jwksPolicy) : undefined;
  const authChanged = providers !== undefined || input.auth_is_active != null;
  const data: Prisma.EnvironmentUpdateInput = {
    ...(input.name != null && { name: input.name }),
    ...(input.label !== undefined && { label: input.label }),
    ...(providers !== undefined && { auth_providers: providers as unknown as Prisma.InputJsonValue }),
    ...(input.auth_is_active != null && { auth_is_active: input.auth_is_active }),
    ...(authChanged && { auth_updated_at: new Date() }),
  };
  if (Object.keys(data).length === 0) return environmentView(await liveEnvironment(db, orgId, envId));
  return environmentView(await db.environment.update({ where: { id: envId }, data }));
}

/**
 * What `x-platform-orgid: <org_id>:<env_id>` resolves to at the gateway: the environment's
 * providers, or null when the organisation is unknown or not active, the environment is unknown
 * or deleted, or its auth is switched off. Users of the environment are scoped by
 * `environment_id` = `<org_id>:<env_id>`.
 */
export async function environmentAuth(db: IdentityDb, orgId: string, envId: string, policy: EnvironmentAuthPolicy, logger?: Logger) {
  const environment = await db.environment.findFirst({ where: { id: envId, organisation_id: orgId, deleted_at: null } });
  if (!environment || !environment.auth_is_active) return null;
  const organisation = await db.organisation.findUnique({ where: { id: orgId }, select: { status: true } });
  if (!organisation || organisation.status !== "active") return null;
  const providers = storedAuthProviders(environment.auth_providers, policy.jwksPolicy, (index, problem) =>
    logger?.warn({ org_id: orgId, env_id: envId, index, problem }, "stored auth provider is invalid; left out"),
  );
  return { environment_id: `${orgId}:${envId}`, providers };
}

export async function getEnvironment(db: IdentityDb, principal: DashboardPrincipal, orgId: string, envId: string) {
  await requireMembership(db, principal, orgId, "read");
  return environmentView(await liveEnvironment(db, orgId, envId));
}

export async function listEnvironments(db: IdentityDb, principal: DashboardPrincipal, orgId: string) {
  await requireMembership(db, principal, orgId, "read");
  const rows = await db.environment.findMany({ where: { organisation_id: orgId, deleted_at: null }, orderBy: { created_at: "asc" } });
  return rows.map(environmentView);
}

/**
 * DELETE /v0/organisation/{org_id}/environments/{env_id}: a soft delete; every key of the
 * environment is revoked in the same transaction, so none authenticates from the next request on.
 */
export async function deleteEnvironment(db: IdentityDb, principal: DashboardPrincipal, orgId: string, envId: string) {
  await requireMembership(db, principal, orgId, "admin");
  await liveEnvironment(db, orgId, envId);
  const now = new Date();
  await db.$transaction([
    db.apiKey.updateMany({ where: { environment_id: envId, revoked_at: null }, data: { revoked_at: now } }),
    db.environment.update({ where: { id: envId }, data: { deleted_at: now } }),
  ]);
}
