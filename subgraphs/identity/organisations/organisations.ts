import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { newId } from "../../../lib/ids.ts";
import type { IdentityDb } from "../db.ts";
import { environmentView } from "../environments/environment-view.ts";
import { requireMembership } from "./membership.ts";

/** The organisation with its active members and live environments (spec 2.5). */
export async function organisationRecord(db: IdentityDb, orgId: string) {
  const organisation = await db.organisation.findUniqueOrThrow({ where: { id: orgId } });
  const [members, environments] = await Promise.all([
    db.member.findMany({ where: { organisation_id: orgId, status: "active" }, orderBy: { created_at: "asc" } }),
    db.environment.findMany({ where: { organisation_id: orgId, deleted_at: null }, orderBy: { created_at: "asc" } }),
  ]);
  return { ...organisation, members, environments: environments.map(environmentView) };
}

/** POST /v0/organisations: the caller becomes its owner. */
export async function createOrganisation(db: IdentityDb, principal: DashboardPrincipal, input: { name: string; contact_email?: string | null }) {
  const id = newId("org");
  await db.$transaction(async (tx) => {
    await tx.organisation.create({ data: { id, name: input.name, contact_email: input.contact_email ?? null, status: "active" } });
    await tx.member.create({ data: { id: newId("mem"), organisation_id: id, issuer: principal.issuer, sub: principal.subject, role: "owner" } });
  });
  return organisationRecord(db, id);
}

export async function getOrganisation(db: IdentityDb, principal: DashboardPrincipal, orgId: string) {
  await requireMembership(db, principal, orgId, "read");
  return organisationRecord(db, orgId);
}

/** PATCH /v0/organisation/{org_id}: `name`, `contact_email`. */
export async function updateOrganisation(db: IdentityDb, principal: DashboardPrincipal, orgId: string, input: { name?: string | null; contact_email?: string | null }) {
  await requireMembership(db, principal, orgId, "admin");
  await db.organisation.update({
    where: { id: orgId },
    data: { ...(input.name != null && { name: input.name }), ...(input.contact_email !== undefined && { contact_email: input.contact_email }) },
  });
  return organisationRecord(db, orgId);
}
