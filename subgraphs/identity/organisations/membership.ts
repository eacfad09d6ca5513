import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { IdentityDb } from "../db.ts";

export type Access = "read" | "admin";

/**
 * The caller's active membership of the organisation, by the session token's issuer and subject
 * (one subject string names different people at different DASHBOARD_AUTH issuers). Non-members
 * get 404, exactly like a missing organisation, so organisation ids cannot be probed; members
 * without the role get 403.
 */
export async function requireMembership(db: Pick<IdentityDb, "member">, principal: DashboardPrincipal, orgId: string, access: Access) {
  const member = await db.member.findFirst({ where: { organisation_id: orgId, issuer: principal.issuer, sub: principal.subject, status: "active" } });
  if (!member) throw appError("IDS-404-001", `Organisation ${orgId} was not found.`);
  if (access === "admin" && member.role !== "owner" && member.role !== "admin") throw appError("IDS-403-003");
  return member;
}
