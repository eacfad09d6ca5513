// A producer's outbox of outgoing events (issue 29), written once for every producer subgraph
// (users, finance, agents): each keeps an `outgoing_events` table of the same shape in its own
// schema and passes its Prisma delegate (`tx.outgoingEvent`) here. lib/outgoing-events.ts is the
// peer contract the identity service's relay reads these through.

import type { EmittedEventType, EventPayload } from "./contracts/events.ts";
import { newId } from "./ids.ts";
import type { OutboxEvent } from "./outgoing-events.ts";

/** How long a relayed event is kept (for looking into what the relay saw) before it is pruned. */
const RELAYED_RETENTION_MS = 7 * 86_400_000;

/** An outgoing event as a change site writes it: the catalogue type and its documented `data`. */
export type OutgoingEventInput = {
  [T in EmittedEventType]: { type: T; user_id: string; resource: { type: string; id: string }; data: EventPayload<T> };
}[EmittedEventType];

/** An outbox row as every producer's table holds it. */
export interface OutboxRow {
  id: bigint;
  event_id: string;
  type: string;
  user_id: string;
  resource_type: string;
  resource_id: string;
  data: unknown;
  created_at: Date;
}

/**
 * The slice of a producer's Prisma delegate for its `outgoing_events` model the outbox needs;
 * each subgraph's generated client has its own, of this shape.
 */
export interface OutboxTable {
  create(args: { data: { event_id: string; type: string; user_id: string; resource_type: string; resource_id: string; data: object } }): PromiseLike<unknown>;
  findMany(args: { where: { relayed_at: null }; orderBy: { id: "asc" }; take: number }): PromiseLike<OutboxRow[]>;
  updateMany(args: { where: { id: { in: bigint[] }; relayed_at: null }; data: { relayed_at: Date } }): PromiseLike<{ count: number }>;
  deleteMany(args: { where: { relayed_at: { lt: Date } } }): PromiseLike<{ count: number }>;
}

/** An unrelayed event as a producer answers it (the peer contract's OutboxEvent, its instant a Date until GraphQL renders it). */
export type OutgoingEventView = Omit<OutboxEvent, "created_at"> & { created_at: Date };

/**
 * Writes an outgoing event into the outbox through the caller's transaction's delegate, so it
 * exists exactly when the change it reports is committed; the identity service's relay takes it
 * from there. Answers its id (`evt_…`, the receivers' `webhook-id`).
 */
export async function emitOutgoingEvent(table: OutboxTable, event: OutgoingEventInput): Promise<string> {
  const event_id = newId("evt");
  await table.create({ data: { event_id, type: event.type, user_id: event.user_id, resource_type: event.resource.type, resource_id: event.resource.id, data: event.data } });
  return event_id;
}

/** The oldest unrelayed outbox events, in order, their environment unknown (null). */
export async function unrelayedOutgoingEvents(table: OutboxTable, limit: number): Promise<OutgoingEventView[]> {
  const rows = await table.findMany({ where: { relayed_at: null }, orderBy: { id: "asc" }, take: limit });
  return rows.map((row) => ({
    id: row.id.toString(),
    event_id: row.event_id,
    type: row.type,
    user_id: row.user_id,
    environment_id: null,
    resource_type: row.resource_type,
    resource_id: row.resource_id,
    data: row.data as Record<string, unknown>,
    created_at: row.created_at,
  }));
}

/** Marks events relayed and prunes those relayed long ago; answers how many it marked (ids that are not outbox ids are ignored). */
export async function acknowledgeOutgoingEvents(table: OutboxTable, ids: readonly string[], now = new Date()): Promise<number> {
  const { count } = await table.updateMany({ where: { id: { in: ids.filter((id) => /^\d{1,19}$/.test(id)).map((id) => BigInt(id)) }, relayed_at: null }, data: { relayed_at: now } });
  await table.deleteMany({ where: { relayed_at: { lt: new Date(now.getTime() - RELAYED_RETENTION_MS) } } });
  return count;
}
