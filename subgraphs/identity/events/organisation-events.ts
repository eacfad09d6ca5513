import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { IdentityDb } from "../db.ts";
import { requireMembership } from "../organisations/membership.ts";
import type { OrganisationEvent } from "../types/organisation-event.ts";

export type OrganisationEventRecord = OrganisationEvent;

export interface EventQuery {
  limit?: number;
  offset?: number;
  /** only events of this catalogue type */
  type?: string;
  /** only events of this environment of the organisation */
  env_id?: string;
}

const DEFAULT_LIMIT = 50;

type EventRow = Awaited<ReturnType<IdentityDb["event"]["findFirstOrThrow"]>>;

/** A stored event as the events API answers it (the envelope receivers are sent). */
export function envelope(row: EventRow): OrganisationEventRecord {
  return {
    id: row.event_id,
    type: row.type,
    api_version: row.api_version,
    created_at: row.created_at,
    environment_id: `${row.org_id}:${row.env_id}`,
    resource: { type: row.resource_type, id: row.resource_id },
    data: row.data as Record<string, unknown>,
  };
}

/**
 * One page of the organisation's outgoing events (issue 29), newest first, for its members (404
 * to anyone else, like every organisation read); `type` and `env_id` narrow it.
 */
export async function listOrganisationEvents(db: Pick<IdentityDb, "member" | "event">, principal: DashboardPrincipal, orgId: string, query: EventQuery): Promise<OrganisationEventRecord[]> {
  await requireMembership(db, principal, orgId, "read");
  const rows = await db.event.findMany({
    where: { org_id: orgId, ...(query.type !== undefined && { type: query.type }), ...(query.env_id !== undefined && { env_id: query.env_id }) },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: query.limit ?? DEFAULT_LIMIT,
    skip: query.offset ?? 0,
  });
  return rows.map(envelope);
}

/** One of the organisation's events; an unknown id, or another organisation's, is 404 IDS-404-001. */
export async function getOrganisationEvent(db: Pick<IdentityDb, "member" | "event">, principal: DashboardPrincipal, orgId: string, eventId: string): Promise<OrganisationEventRecord> {
  await requireMembership(db, principal, orgId, "read");
  const row = await db.event.findFirst({ where: { event_id: eventId, org_id: orgId } });
  if (!row) throw appError("IDS-404-001", `Event ${eventId} was not found.`);
  return envelope(row);
}
