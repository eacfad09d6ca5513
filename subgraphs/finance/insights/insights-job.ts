import { newId } from "../../../lib/ids.ts";
import { JobQueue, type JobHandler, type RawSql } from "../../../lib/jobs/job-queue.ts";
import { computeInsights, type InsightDeps } from "./compute-insights.ts";

export const INSIGHTS_JOB = "compute_insights";

/** How long the job waits after the first ledger change, so a burst of movements is computed once. */
export const INSIGHTS_DELAY_MS = 2000;

/**
 * Asks for the user's insights to be computed again, in the caller's database transaction (the
 * one that changed the ledger or a budget), so the request commits with the change or not at all.
 */
export async function requestInsights(tx: RawSql, userId: string, now: Date = new Date()): Promise<void> {
  await JobQueue.request(tx, "finance", { id: newId("job"), kind: INSIGHTS_JOB, key: `insights:${userId}`, payload: { user_id: userId }, runAt: new Date(now.getTime() + INSIGHTS_DELAY_MS) });
}

export function insightsJobHandler(deps: InsightDeps): JobHandler {
  return {
    async run(job) {
      await computeInsights(deps, (job.payload as { user_id: string }).user_id);
      return { outcome: "done" };
    },
  };
}
