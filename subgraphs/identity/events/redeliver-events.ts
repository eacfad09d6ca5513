import type { DashboardPrincipal } from "../../../lib/auth/principal.ts";
import { subscribesTo } from "../../../lib/contracts/events.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { IdentityDb } from "../db.ts";
import { requireMembership } from "../organisations/membership.ts";
import type { FailedEventsRedelivery, OrganisationEventDetail, RedeliverEventInput, RedeliverFailedEventsInput } from "../types/organisation-event.ts";
import { eventDetail, findEvent } from "./organisation-events.ts";

// Redelivery (issue 29): a delivery is one row per event and endpoint (unique), so redelivering
// starts a new round on that row rather than adding one: pending, due now, its round's attempts
// and first_attempt_at cleared so the retry schedule and its three days start again; the attempt
// rows of earlier rounds stay as its history. A delivery in flight (claimed, its lease running) is
// left to its attempt. Delivery rows are locked before endpoint rows are read, the order of every writer.

/** The columns of a fresh round, due at `now`. */
function freshRound(now: Date) {
  return { status: "pending", attempts: 0, first_attempt_at: null, next_attempt_at: now, locked_until: null, delivered_at: null };
}

const NOTHING_TO_DELIVER_TO = "No enabled webhook endpoint of the event's environment is subscribed to its type.";

/**
 * Schedules a fresh delivery of the event to every enabled endpoint of its environment subscribed
 * to its type, or to the one `endpoint_id` names (404 when it is not a live endpoint of that
 * environment, 409 IDS-409-004 when it is disabled or not subscribed). Owners and admins.
 */
export async function redeliverEvent(
  db: IdentityDb,
  principal: DashboardPrincipal,
  orgId: string,
  eventId: string,
  input: RedeliverEventInput,
  now: Date = new Date(),
): Promise<OrganisationEventDetail> {
  await requireMembership(db, principal, orgId, "admin");
  const event = await findEvent(db, orgId, eventId);
  await db.$transaction(async (tx) => {
    const owed = await tx.$queryRaw<{ id: string; endpoint_id: string; status: string; locked_until: Date | null }[]>`
      SELECT id, endpoint_id, status, locked_until FROM "identity"."webhook_deliveries" WHERE event_id = ${eventId} ORDER BY id FOR UPDATE`;
    const endpoints = await tx.webhookEndpoint.findMany({
      where: { organisation_id: orgId, environment_id: event.env_id, deleted_at: null, ...(input.endpoint_id != null && { id: input.endpoint_id }) },
      select: { id: true, enabled: true, event_types: true },
    });
    if (input.endpoint_id != null && endpoints.length === 0) throw appError("IDS-404-001", `Webhook endpoint ${input.endpoint_id} was not found.`);
    const targets = endpoints.filter((endpoint) => endpoint.enabled && subscribesTo(endpoint.event_types, event.type));
    if (targets.length === 0)
      throw appError("IDS-409-004", input.endpoint_id != null ? `Webhook endpoint ${input.endpoint_id} is disabled or not subscribed to ${event.type}.` : NOTHING_TO_DELIVER_TO);
    for (const endpoint of targets) {
      const row = owed.find((delivery) => delivery.endpoint_id === endpoint.id);
      if (!row) await tx.webhookDelivery.create({ data: { id: newId("whd"), event_id: eventId, endpoint_id: endpoint.id, next_attempt_at: now } });
      else if (!(row.status === "pending" && row.locked_until !== null && row.locked_until > now)) await tx.webhookDelivery.update({ where: { id: row.id }, data: freshRound(now) });
    }
  });
  return eventDetail(db, event);
}

/**
 * Queues again every delivery of the organisation's events created at or after `since` that an
 * attempt has not delivered (failed, or pending after an attempt: what `delivery_success=false`
 * lists), to endpoints still enabled, optionally of one endpoint; answers how many. Owners and admins.
 */
export async function redeliverFailedEvents(
  db: IdentityDb,
  principal: DashboardPrincipal,
  orgId: string,
  input: RedeliverFailedEventsInput,
  now: Date = new Date(),
): Promise<FailedEventsRedelivery> {
  await requireMembership(db, principal, orgId, "admin");
  const endpointId = input.endpoint_id ?? null;
  if (endpointId !== null && !(await db.webhookEndpoint.findFirst({ where: { id: endpointId, organisation_id: orgId, deleted_at: null }, select: { id: true } })))
    throw appError("IDS-404-001", `Webhook endpoint ${endpointId} was not found.`);
  // one statement: the rows are locked as they are picked (a delivery claimed meanwhile is skipped: it is being attempted)
  const queued = await db.$executeRaw`
    UPDATE "identity"."webhook_deliveries" SET status = 'pending', attempts = 0, first_attempt_at = NULL, next_attempt_at = ${now}, locked_until = NULL, delivered_at = NULL
    WHERE id IN (
      SELECT d.id FROM "identity"."webhook_deliveries" d
      JOIN "identity"."events" e ON e.event_id = d.event_id
      JOIN "identity"."webhook_endpoints" w ON w.id = d.endpoint_id
      WHERE e.org_id = ${orgId} AND e.created_at >= ${input.since} AND w.enabled AND w.deleted_at IS NULL
        AND (${endpointId}::text IS NULL OR d.endpoint_id = ${endpointId})
        AND (d.status = 'failed' OR (d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until <= ${now})
          AND EXISTS (SELECT 1 FROM "identity"."webhook_delivery_attempts" a WHERE a.delivery_id = d.id)))
      ORDER BY d.id FOR UPDATE OF d SKIP LOCKED)`;
  return { queued };
}
