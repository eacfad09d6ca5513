import { SPEC_VERSION } from "../../../lib/contracts/api-version.ts";
import type { EventPayload, WebhookDisabledReason } from "../../../lib/contracts/events.ts";
import { newId } from "../../../lib/ids.ts";
import type { IdentityDb } from "../db.ts";
import { storeWithDeliveries } from "../events/event-relay.ts";
import type { WebhookEndpoint as WebhookEndpointRow } from "../generated/prisma/client.ts";

type Tx = Parameters<Parameters<IdentityDb["$transaction"]>[0]>[0];

/** An endpoint whose attempts have all failed this long, no success since, is disabled ("failing"), as Svix does. */
export const FAILING_DISABLE_AFTER_MS = 5 * 86_400_000;

/**
 * Keeps the endpoint's failing run with an attempt's outcome, in the attempt's transaction (its
 * delivery row already locked: deliveries before endpoints): a delivery ends the run; a failure
 * starts it if none is running and, once the run is five days old, disables the endpoint
 * ("failing"); a 410 disables it ("gone"). Answers the reason it was disabled with, if it was.
 * Disabling stores a `webhook_endpoint.disabled` event for the organisation's members: the events
 * API lists it, and the environment's other endpoints subscribed to it are sent it.
 */
export async function recordEndpointHealth(
  tx: Tx,
  endpoint: WebhookEndpointRow,
  outcome: "delivered" | "gone" | "failed",
  at: { started: Date; finished: Date },
): Promise<WebhookDisabledReason | null> {
  if (outcome === "delivered") {
    await tx.webhookEndpoint.updateMany({ where: { id: endpoint.id, failing_since: { not: null } }, data: { failing_since: null } });
    return null;
  }
  if (outcome === "gone") {
    const { count } = await tx.webhookEndpoint.updateMany({ where: { id: endpoint.id, enabled: true }, data: { enabled: false, disabled_reason: "gone" } });
    if (count === 0) return null;
    await announceDisabled(tx, endpoint, "gone", null, at.finished);
    return "gone";
  }
  await tx.webhookEndpoint.updateMany({ where: { id: endpoint.id, failing_since: null }, data: { failing_since: at.started } });
  const { count } = await tx.webhookEndpoint.updateMany({
    where: { id: endpoint.id, enabled: true, deleted_at: null, failing_since: { lte: new Date(at.finished.getTime() - FAILING_DISABLE_AFTER_MS) } },
    data: { enabled: false, disabled_reason: "failing" },
  });
  if (count === 0) return null;
  const { failing_since } = await tx.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id }, select: { failing_since: true } });
  await announceDisabled(tx, endpoint, "failing", failing_since, at.finished);
  return "failing";
}

/** The `webhook_endpoint.disabled` event (the only notice organisation members have), with its deliveries to the environment's other endpoints. */
async function announceDisabled(tx: Tx, endpoint: WebhookEndpointRow, reason: "gone" | "failing", failingSince: Date | null, at: Date): Promise<void> {
  const data: EventPayload<"webhook_endpoint.disabled"> = { id: endpoint.id, url: endpoint.url, disabled_reason: reason, failing_since: failingSince?.getTime() ?? null, disabled_at: at.getTime() };
  // new delivery rows only (of a new event): nothing another transaction holds, so taking them after the endpoint's row cannot deadlock
  await storeWithDeliveries(tx, [
    {
      event_id: newId("evt", at.getTime()),
      org_id: endpoint.organisation_id,
      env_id: endpoint.environment_id,
      type: "webhook_endpoint.disabled",
      resource_type: "webhook_endpoint",
      resource_id: endpoint.id,
      data,
      api_version: SPEC_VERSION,
      created_at: at,
    },
  ]);
}
