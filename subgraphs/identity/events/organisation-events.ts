import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { MAX_ATTEMPTS_SHOWN, type WebhookDeliveryStatus } from "../../../lib/contracts/events.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { IdentityDb } from "../db.ts";
import type { Prisma } from "../generated/prisma/client.ts";
import { requireMembership } from "../organisations/membership.ts";
import type { OrganisationEvent, OrganisationEventDetail } from "../types/organisation-event.ts";

export type OrganisationEventRecord = OrganisationEvent;

export interface EventQuery {
  limit?: number;
  offset?: number;
  /** only events of this catalogue type */
  type?: string;
  /** only events of this environment of the organisation */
  env_id?: string;
  /** only events about this resource */
  resource_id?: string;
  /** only events created strictly after / before these instants */
  created_after?: Date;
  created_before?: Date;
  /**
   * false: events with a delivery not delivered after an attempt (failed, or pending with an
   * attempt made); true: events with deliveries, all delivered. Events with none, or whose
   * deliveries are yet to be attempted, match neither.
   */
  delivery_success?: boolean;
}

/** A delivery that an attempt has not delivered: failed, or pending after an attempt (of any round). */
export const UNDELIVERED_AFTER_ATTEMPT = {
  OR: [{ status: "failed" }, { status: "pending", attempt_rows: { some: {} } }],
} satisfies Prisma.WebhookDeliveryWhereInput;

function deliveryCondition(success: boolean): Prisma.EventWhereInput {
  return success ? { deliveries: { some: {}, every: { status: "delivered" } } } : { deliveries: { some: UNDELIVERED_AFTER_ATTEMPT } };
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
 * to anyone else, like every organisation read); the query's filters narrow it.
 */
export async function listOrganisationEvents(db: Pick<IdentityDb, "member" | "event">, principal: DashboardPrincipal, orgId: string, query: EventQuery): Promise<OrganisationEventRecord[]> {
  await requireMembership(db, principal, orgId, "read");
  const rows = await db.event.findMany({
    where: {
      org_id: orgId,
      ...(query.type !== undefined && { type: query.type }),
      ...(query.env_id !== undefined && { env_id: query.env_id }),
      ...(query.resource_id !== undefined && { resource_id: query.resource_id }),
      ...((query.created_after !== undefined || query.created_before !== undefined) && {
        created_at: { ...(query.created_after !== undefined && { gt: query.created_after }), ...(query.created_before !== undefined && { lt: query.created_before }) },
      }),
      ...(query.delivery_success !== undefined && deliveryCondition(query.delivery_success)),
    },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: query.limit ?? DEFAULT_LIMIT,
    skip: query.offset ?? 0,
  });
  return rows.map(envelope);
}

/** One of the organisation's events with its deliveries; an unknown id, or another organisation's, is 404 IDS-404-001. */
export async function getOrganisationEvent(db: Pick<IdentityDb, "member" | "event" | "webhookDelivery">, principal: DashboardPrincipal, orgId: string, eventId: string): Promise<OrganisationEventDetail> {
  await requireMembership(db, principal, orgId, "read");
  return eventDetail(db, await findEvent(db, orgId, eventId));
}

export async function findEvent(db: Pick<IdentityDb, "event">, orgId: string, eventId: string): Promise<EventRow> {
  const row = await db.event.findFirst({ where: { event_id: eventId, org_id: orgId } });
  if (!row) throw appError("IDS-404-001", `Event ${eventId} was not found.`);
  return row;
}

/** The event's envelope with its deliveries (oldest first) and each one's latest attempts (newest first). */
export async function eventDetail(db: Pick<IdentityDb, "webhookDelivery">, row: EventRow): Promise<OrganisationEventDetail> {
  const deliveries = await db.webhookDelivery.findMany({
    where: { event_id: row.event_id },
    orderBy: [{ created_at: "asc" }, { id: "asc" }],
    include: { attempt_rows: { orderBy: [{ attempted_at: "desc" }, { id: "desc" }], take: MAX_ATTEMPTS_SHOWN }, _count: { select: { attempt_rows: true } } },
  });
  return {
    ...envelope(row),
    deliveries: deliveries.map((delivery) => ({
      id: delivery.id,
      endpoint_id: delivery.endpoint_id,
      status: delivery.status as WebhookDeliveryStatus,
      attempt_count: delivery._count.attempt_rows,
      next_attempt_at: delivery.status === "pending" ? delivery.next_attempt_at : null,
      delivered_at: delivery.status === "delivered" ? delivery.delivered_at : null,
      attempts: delivery.attempt_rows.map((attempt) => ({
        attempted_at: attempt.attempted_at,
        status_code: attempt.status_code,
        latency_ms: attempt.latency_ms,
        response_excerpt: attempt.response_excerpt,
        error: attempt.error,
      })),
    })),
  };
}
