import type { EmittedEventType, EventPayload } from "../../../lib/contracts/events.ts";
import { newId } from "../../../lib/ids.ts";
import type { Prisma, UsersDb, UsersTx } from "../db.ts";

/** How long a relayed event is kept (for looking into what the relay saw) before it is pruned. */
const RELAYED_RETENTION_MS = 7 * 86_400_000;

/** An outgoing event as a change site writes it: the catalogue type and its documented `data`. */
export type OutgoingEventInput = {
  [T in EmittedEventType]: { type: T; user_id: string; resource: { type: string; id: string }; data: EventPayload<T> };
}[EmittedEventType];

/**
 * Writes an outgoing event (issue 29) into the outbox in the caller's transaction, so it exists
 * exactly when the change it reports is committed; the identity service's relay takes it from
 * there. Answers its id (`evt_…`, the receivers' `webhook-id`).
 */
export async function emitEvent(tx: UsersTx, event: OutgoingEventInput): Promise<string> {
  const event_id = newId("evt");
  await tx.outgoingEvent.create({
    data: { event_id, type: event.type, user_id: event.user_id, resource_type: event.resource.type, resource_id: event.resource.id, data: event.data as Prisma.InputJsonObject },
  });
  return event_id;
}

export interface OutgoingEventView {
  /** the outbox id, a decimal string (BIGINT) */
  id: string;
  event_id: string;
  type: string;
  user_id: string;
  /** the user's environment: `"default"` or `"<org-id>:<env-id>"` */
  environment_id: string;
  resource_type: string;
  resource_id: string;
  data: Record<string, unknown>;
  created_at: Date;
}

/** The oldest unrelayed outbox events, in order, each with its user's environment. */
export async function unrelayedOutgoingEvents(db: UsersDb, limit: number): Promise<OutgoingEventView[]> {
  const rows = await db.outgoingEvent.findMany({ where: { relayed_at: null }, orderBy: { id: "asc" }, take: limit });
  const users = await db.user.findMany({ where: { id: { in: [...new Set(rows.map((row) => row.user_id))] } }, select: { id: true, environment_id: true } });
  const environments = new Map(users.map((user) => [user.id, user.environment_id]));
  return rows.map((row) => ({
    id: row.id.toString(),
    event_id: row.event_id,
    type: row.type,
    user_id: row.user_id,
    // users are never deleted; were one gone, its event would belong to no organisation
    environment_id: environments.get(row.user_id) ?? "default",
    resource_type: row.resource_type,
    resource_id: row.resource_id,
    data: row.data as Record<string, unknown>,
    created_at: row.created_at,
  }));
}

/** Marks events relayed and prunes those relayed long ago; answers how many it marked. */
export async function acknowledgeOutgoingEvents(db: UsersDb, ids: readonly string[], now = new Date()): Promise<number> {
  const { count } = await db.outgoingEvent.updateMany({ where: { id: { in: ids.filter((id) => /^\d{1,19}$/.test(id)).map((id) => BigInt(id)) }, relayed_at: null }, data: { relayed_at: now } });
  await db.outgoingEvent.deleteMany({ where: { relayed_at: { lt: new Date(now.getTime() - RELAYED_RETENTION_MS) } } });
  return count;
}
