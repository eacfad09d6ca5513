import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import { isUniqueViolation } from "../../../lib/db/prisma-errors.ts";
import type { IdentityDb } from "../db.ts";
import { requireMembership } from "../organisations/membership.ts";

export async function listMembers(db: IdentityDb, principal: DashboardPrincipal, orgId: string) {
  await requireMembership(db, principal, orgId, "read");
  return db.member.findMany({ where: { organisation_id: orgId, status: "active" }, orderBy: { created_at: "asc" } });
}

/** Adds a dashboard user by subject; a removed member comes back active. */
export async function addMember(db: IdentityDb, principal: DashboardPrincipal, orgId: string, input: { sub: string; email?: string | null; name?: string | null; role?: string | null }) {
  await requireMembership(db, principal, orgId, "admin");
  const existing = await db.member.findUnique({ where: { organisation_id_sub: { organisation_id: orgId, sub: input.sub } } });
  if (existing?.status === "active") throw appError("IDS-409-001", "This subject is already a member.");
  const data = { email: input.email ?? null, name: input.name ?? null, role: input.role ?? "member", status: "active" };
  try {
    return existing
      ? await db.member.update({ where: { id: existing.id }, data })
      : await db.member.create({ data: { id: newId("mem"), organisation_id: orgId, sub: input.sub, ...data } });
  } catch (error) {
    if (isUniqueViolation(error)) throw appError("IDS-409-001", "This subject is already a member.");
    throw error;
  }
}

/** Removes a member (status removed); the last owner cannot be removed. */
export async function removeMember(db: IdentityDb, principal: DashboardPrincipal, orgId: string, memberId: string) {
  await requireMembership(db, principal, orgId, "admin");
  return db.$transaction(async (tx) => {
    const member = await tx.member.findFirst({ where: { id: memberId, organisation_id: orgId, status: "active" } });
    if (!member) throw appError("IDS-404-001", `Member ${memberId} was not found.`);
    if (member.role === "owner" && (await tx.member.count({ where: { organisation_id: orgId, status: "active", role: "owner" } })) === 1) throw appError("IDS-409-002");
    return tx.member.update({ where: { id: member.id }, data: { status: "removed" } });
  });
}
