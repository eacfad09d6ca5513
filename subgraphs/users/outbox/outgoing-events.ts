import { emitOutgoingEvent, type OutgoingEventInput } from "../../../lib/outgoing-events-outbox.ts";
import type { UsersDb, UsersTx } from "../db.ts";

/** Writes an outgoing event (issue 29) into users.outgoing_events in the caller's transaction (lib/outgoing-events-outbox.ts). */
export const emitEvent = (tx: UsersTx, event: OutgoingEventInput): Promise<string> => emitOutgoingEvent(tx.outgoingEvent, event);

/** The environments of these users by id (`"default"` or `"<org-id>:<env-id>"`); an unknown id is absent. */
export async function userEnvironments(db: UsersDb, userIds: readonly string[]): Promise<Map<string, string>> {
  const users = await db.user.findMany({ where: { id: { in: [...userIds] } }, select: { id: true, environment_id: true } });
  return new Map(users.map((user) => [user.id, user.environment_id]));
}
