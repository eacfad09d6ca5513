import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import type { IdentityDb } from "../db.ts";
import { requireMembership } from "../organisations/membership.ts";

export interface OrganisationEventRecord {
  id: string;
  type: string;
  created_at: Date;
  data: Record<string, unknown>;
  api_version: string;
}

export interface EventPage {
  limit?: number;
  offset?: number;
}

/**
 * One page of the organisation's outgoing events, newest first, for its members (404 to anyone
 * else, like every organisation read). No event is emitted yet (spec 6), so every page is empty;
 * the route exists because the organisation wrapper links it (spec 2.5), and keeps its shape when
 * events are stored and read here.
 */
export async function listOrganisationEvents(db: Pick<IdentityDb, "member">, principal: DashboardPrincipal, orgId: string, _page: EventPage): Promise<OrganisationEventRecord[]> {
  await requireMembership(db, principal, orgId, "read");
  return [];
}
