import { newId } from "../../../lib/ids.ts";
import { JobQueue, type JobHandler, type RawSql } from "../../../lib/jobs/job-queue.ts";

/** The job kind of a user's change event: one row per user (key `finance_changed:<user>`), kept between changes. */
export const CHANGE_EVENTS_JOB = "finance_changed";

/** How long a change event waits before its subscribers hear of it, so a burst of changes is told once. */
export const CHANGE_SETTLE_MS = 2000;

/**
 * Publishes that the user's ledger or budgets changed, in the writer's database transaction: the
 * event commits with the change or not at all, and once committed it is told even if the process
 * dies first (a finance job row). Events of one user coalesce until told; published while being
 * told, they are told once more after.
 */
export async function publishChange(tx: RawSql, userId: string, now: Date = new Date()): Promise<void> {
  await JobQueue.request(tx, "finance", { id: newId("job"), kind: CHANGE_EVENTS_JOB, key: `finance_changed:${userId}`, payload: { user_id: userId }, runAt: new Date(now.getTime() + CHANGE_SETTLE_MS) });
}

/** Reacts to a user's change event: told at least once per event (again after a crash or a failure), so idempotent. */
export type ChangeSubscriber = (userId: string) => Promise<unknown>;

/** Tells each subscriber in order; a failure tells the event to all of them again, after the job's backoff. */
export function changeEventsHandler(subscribers: readonly ChangeSubscriber[]): JobHandler {
  return {
    async run(job) {
      const { user_id } = job.payload as { user_id: string };
      for (const subscriber of subscribers) await subscriber(user_id);
      return { outcome: "done" };
    },
  };
}
