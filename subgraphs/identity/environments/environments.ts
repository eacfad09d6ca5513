import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { IdentityDb } from "../db.ts";
import { requireMembership } from "../organisations/membership.ts";
import { environmentRecord } from "./environment-record.ts";

async function liveEnvironment(db: IdentityDb, orgId: string, envId: string) {
  const row = await db.environment.findFirst({ where: { id: envId, organisation_id: orgId, deleted_at: null } });
  if (!row) throw appError("IDS-404-001", `Environment ${envId} was not found.`);
  return row;
}

export async function createEnvironment(db: IdentityDb, principal: DashboardPrincipal, orgId: string, input: { name: string; label?: string | null; kind?: string | null }) {
  await requireMembership(db, principal, orgId, "admin");
  const row = await db.environment.create({ data: { id: newId("env"), organisation_id: orgId, name: input.name, label: input.label ?? null, kind: input.kind ?? "test" } });
  return environmentRecord(row);
}

export async function getEnvironment(db: IdentityDb, principal: DashboardPrincipal, orgId: string, envId: string) {
  await requireMembership(db, principal, orgId, "read");
  return environmentRecord(await liveEnvironment(db, orgId, envId));
}

export async function listEnvironments(db: IdentityDb, principal: DashboardPrincipal, orgId: string) {
  await requireMembership(db, principal, orgId, "read");
  const rows = await db.environment.findMany({ where: { organisation_id: orgId, deleted_at: null }, orderBy: { created_at: "asc" } });
  return rows.map(environmentRecord);
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
