import { SPEC_VERSION } from "../../../lib/contracts/api-version.ts";
import type { JobHandler, JobOutcome } from "../../../lib/jobs/job-queue.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { OutboxEvent, OutboxSource, UserEnvironments } from "../../../lib/outgoing-events.ts";
import { newId } from "../../../lib/ids.ts";
import { environmentId, orgEnvironmentOf } from "../../../lib/auth/orgid.ts";
import { subscribesTo } from "../../../lib/contracts/events.ts";
import { tracedWork } from "../../../lib/tracing.ts";
import type { IdentityDb } from "../db.ts";

type Tx = Parameters<Parameters<IdentityDb["$transaction"]>[0]>[0];
/** An event as identity.events stores it (the sandbox's test events are made in this shape too). */
export type StoredEvent = ReturnType<typeof stored>[number];

/** The standing job that relays the producers' outboxes into identity.events (one row, kept; it asks to run again after each pass). */
export const EVENT_RELAY_JOB = "event_relay";
const BATCH = 100;
const POLL_MS = 1000;
const RETRY_MS = 5000;

/**
 * Stores each producer's outgoing events (issue 29) for their organisation and acknowledges them:
 * a batch is stored in one transaction that skips event ids already stored, then acknowledged, so
 * a batch re-pulled after a failure between the two is stored once (at-least-once pulls,
 * exactly-once rows). Each newly stored event gets, in the same transaction, one pending delivery
 * per enabled endpoint of its environment subscribed to its type. Events of the default
 * environment belong to no organisation and are only acknowledged. A producer that fails is asked again later; the others go on.
 * Events a producer answers without an environment (only users knows a user's) take it from
 * `environments`, asked once per batch; a user it does not know has none (nothing stored).
 */
export function eventRelay(options: { db: IdentityDb; sources: readonly OutboxSource[]; environments: UserEnvironments; logger: Logger }): JobHandler {
  const { db, sources, environments, logger } = options;
  return {
    async run(): Promise<JobOutcome> {
      let full = false;
      let failed = false;
      for (const source of sources) {
        try {
          full = (await relay(source)) || full;
        } catch (error) {
          // a standing job never fails for good: the producer or the database away, it looks again later
          logger.warn({ err: error, producer: source.producer }, "event relay: pass failed; retrying");
          failed = true;
        }
      }
      return { outcome: "later", afterMs: full ? 0 : failed ? RETRY_MS : POLL_MS };
    },
  };

  /** One batch of the source; answers whether it was full (more may wait). */
  async function relay(source: OutboxSource): Promise<boolean> {
    const traceId = `event-relay-${source.producer}`;
    const events = await source.pull(BATCH, traceId);
    // nothing to relay: the pull was a poll, and polls are not traced
    if (events.length === 0) return false;
    return tracedWork(async () => {
      const unplaced = [...new Set(events.filter((event) => event.environment_id === null).map((event) => event.user_id))];
      const places = await environments(unplaced, traceId);
      const rows = events.flatMap((event) => stored(event, event.environment_id ?? places.get(event.user_id) ?? null));
      if (rows.length > 0) await db.$transaction((tx) => storeWithDeliveries(tx, rows));
      await source.acknowledge(events.map((event) => event.id), traceId);
      return events.length === BATCH;
    });
  }
}

function stored(event: OutboxEvent, environment: string | null) {
  const place = environment === null ? null : orgEnvironmentOf(environment);
  if (!place) return [];
  return [
    {
      event_id: event.event_id,
      ...place,
      type: event.type,
      resource_type: event.resource_type,
      resource_id: event.resource_id,
      data: event.data as object,
      api_version: SPEC_VERSION,
      created_at: new Date(event.created_at),
    },
  ];
}

/**
 * Stores the events not stored yet and, for those only, their deliveries: an event re-pulled
 * after a failure is skipped with its deliveries, so an endpoint created since does not get it.
 * Identity's own events (an endpoint disabled) are stored with it too, in their change's transaction.
 */
export async function storeWithDeliveries(tx: Tx, rows: StoredEvent[]): Promise<void> {
  const inserted = await tx.event.createManyAndReturn({ data: rows, skipDuplicates: true, select: { event_id: true, org_id: true, env_id: true, type: true } });
  if (inserted.length === 0) return;
  const endpoints = await tx.webhookEndpoint.findMany({
    where: {
      enabled: true,
      deleted_at: null,
      OR: [...new Set(inserted.map((event) => environmentId(event)))].map((place) => {
        const { org_id, env_id } = orgEnvironmentOf(place)!;
        return { organisation_id: org_id, environment_id: env_id };
      }),
    },
    select: { id: true, organisation_id: true, environment_id: true, event_types: true },
  });
  const deliveries = inserted.flatMap((event) =>
    endpoints
      .filter((endpoint) => endpoint.organisation_id === event.org_id && endpoint.environment_id === event.env_id && subscribesTo(endpoint.event_types, event.type))
      .map((endpoint) => ({ id: newId("whd"), event_id: event.event_id, endpoint_id: endpoint.id })),
  );
  if (deliveries.length > 0) await tx.webhookDelivery.createMany({ data: deliveries, skipDuplicates: true });
}
