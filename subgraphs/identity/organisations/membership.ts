import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { IdentityDb } from "../db.ts";

export type Access = "read" | "admin";

/**
 * The caller's active membership of the organisation. Non-members get 404, exactly like a missing
 * organisation, so organisation ids cannot be probed; members without the role get 403.
 */
export async function requireMembership(db: IdentityDb, principal: DashboardPrincipal, orgId: string, access: Access) {
  const member = await db.member.findUnique({ where: { organisation_id_sub: { organisation_id: orgId, sub: principal.subject } } });
  if (!member || member.status !== "active") throw appError("IDS-404-001", `Organisation ${orgId} was not found.`);
  if (access === "admin" && member.role !== "owner" && member.role !== "admin") throw appError("IDS-403-003");
  return member;
}
