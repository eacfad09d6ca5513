import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import { isUniqueViolation } from "../../../lib/db/prisma-errors.ts";
import type { MemberRole } from "../../../lib/vocabulary/organisations.ts";
import type { IdentityDb } from "../db.ts";
import { requireMembership } from "../organisations/membership.ts";

type Tx = Parameters<Parameters<IdentityDb["$transaction"]>[0]>[0];

/**
 * Role rules (security review item 9), plain so tests call them directly: owners and admins
 * manage members, but only an owner grants the owner role or takes it away (removing or
 * demoting an owner); and the last active owner can be neither removed nor demoted.
 */
export function checkRoleChange(actorRole: string, from: string | null, to: string | null, activeOwners: number): void {
  if ((from === "owner" || to === "owner") && from !== to && actorRole !== "owner") throw appError("IDS-403-004");
  if (from === "owner" && to !== "owner" && activeOwners <= 1) throw appError("IDS-409-002");
}

/** Member changes of one organisation run one at a time (its row locked), so two owners cannot remove each other at once. */
async function lockOrganisation(tx: Tx, orgId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "identity"."organisations" WHERE "id" = ${orgId} FOR UPDATE`;
}

const activeOwners = (tx: Tx, orgId: string) => tx.member.count({ where: { organisation_id: orgId, status: "active", role: "owner" } });

export async function listMembers(db: IdentityDb, principal: DashboardPrincipal, orgId: string) {
  await requireMembership(db, principal, orgId, "read");
  return db.member.findMany({ where: { organisation_id: orgId, status: "active" }, orderBy: { created_at: "asc" } });
}

export interface AddMemberInput {
  issuer?: string | null;
  sub: string;
  email?: string | null;
  name?: string | null;
  role?: string | null;
}

/**
 * Adds a dashboard user by issuer and subject; the issuer defaults to the caller's own and must be
 * one of DASHBOARD_AUTH (`dashboardIssuers`, when the service knows them). A removed member comes
 * back active; a member recorded before issuers were (issuer null) is taken over with this issuer.
 */
export async function addMember(db: IdentityDb, principal: DashboardPrincipal, orgId: string, input: AddMemberInput, dashboardIssuers: readonly string[] = []) {
  const issuer = input.issuer ?? principal.issuer;
  if (dashboardIssuers.length > 0 && !dashboardIssuers.includes(issuer))
    throw validationError(["issuer"], "Value error, not an issuer of dashboard session tokens (DASHBOARD_AUTH)", issuer);
  const role = input.role ?? "member";
  try {
    return await db.$transaction(async (tx) => {
      await lockOrganisation(tx, orgId);
      const actor = await requireMembership(tx, principal, orgId, "admin");
      const existing =
        (await tx.member.findFirst({ where: { organisation_id: orgId, issuer, sub: input.sub } })) ??
        (await tx.member.findFirst({ where: { organisation_id: orgId, issuer: null, sub: input.sub } }));
      if (existing?.status === "active" && existing.issuer !== null) throw appError("IDS-409-001", "This subject of this issuer is already a member.");
      // taking over an active row without an issuer changes its role like an update would
      const from = existing?.status === "active" ? existing.role : null;
      checkRoleChange(actor.role, from, role, from === "owner" ? await activeOwners(tx, orgId) : 0);
      const data = { issuer, email: input.email ?? null, name: input.name ?? null, role, status: "active" };
      return existing
        ? tx.member.update({ where: { id: existing.id }, data })
        : tx.member.create({ data: { id: newId("mem"), organisation_id: orgId, sub: input.sub, ...data } });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw appError("IDS-409-001", "This subject of this issuer is already a member.");
    throw error;
  }
}

async function findActiveMember(tx: Tx, orgId: string, memberId: string) {
  const member = await tx.member.findFirst({ where: { id: memberId, organisation_id: orgId, status: "active" } });
  if (!member) throw appError("IDS-404-001", `Member ${memberId} was not found.`);
  return member;
}

/** PATCH …/members/{member_id}: changes a member's role under the role rules. */
export async function updateMemberRole(db: IdentityDb, principal: DashboardPrincipal, orgId: string, memberId: string, role: MemberRole) {
  return db.$transaction(async (tx) => {
    await lockOrganisation(tx, orgId);
    const actor = await requireMembership(tx, principal, orgId, "admin");
    const member = await findActiveMember(tx, orgId, memberId);
    checkRoleChange(actor.role, member.role, role, member.role === "owner" ? await activeOwners(tx, orgId) : 0);
    return member.role === role ? member : tx.member.update({ where: { id: member.id }, data: { role } });
  });
}

/** Removes a member (status removed) under the role rules. */
export async function removeMember(db: IdentityDb, principal: DashboardPrincipal, orgId: string, memberId: string) {
  return db.$transaction(async (tx) => {
    await lockOrganisation(tx, orgId);
    const actor = await requireMembership(tx, principal, orgId, "admin");
    const member = await findActiveMember(tx, orgId, memberId);
    checkRoleChange(actor.role, member.role, null, member.role === "owner" ? await activeOwners(tx, orgId) : 0);
    return tx.member.update({ where: { id: member.id }, data: { status: "removed" } });
  });
}
