import type { UsersTx } from "../db.ts";
import type { AccountStatus } from "../../../lib/vocabulary/kyc.ts";
import type { AccountTrigger } from "../user/account-status.ts";
import { emitEvent } from "../outbox/outgoing-events.ts";

export interface AccountTransition {
  user_id: string;
  from: AccountStatus;
  to: AccountStatus;
  cause: AccountTrigger;
  /** the provider event behind the change, when a webhook caused it */
  event_id?: string | null;
}

/**
 * Moves the user from `from` to `to` and writes its status_history row and its
 * `user.kyc_status_changed` event, in the caller's transaction. Optimistic: the update only matches while the status is still `from`, so of two
 * concurrent requests that read the same status only one applies. Returns false (and writes
 * nothing) when the guard did not match. Callers get `to` from `nextAccountStatus`.
 */
export async function changeAccountStatus(tx: UsersTx, change: AccountTransition): Promise<boolean> {
  const { count } = await tx.user.updateMany({ where: { id: change.user_id, status: change.from }, data: { status: change.to } });
  if (count === 0) return false;
  const row = await tx.statusChange.create({
    data: { user_id: change.user_id, from: change.from, to: change.to, cause: change.cause, event_id: change.event_id ?? null },
  });
  await emitEvent(tx, {
    type: "user.kyc_status_changed",
    user_id: change.user_id,
    resource: { type: "user", id: change.user_id },
    data: { user_id: change.user_id, status: change.to, previous_status: change.from, changed_at: row.changed_at.getTime() },
  });
  return true;
}
