import type { AgentsTx } from "../db.ts";
import { moveUserStrategy } from "./user-strategies.ts";
import { MAX_CONSECUTIVE_FAILURES } from "./user-strategy-status.ts";

/**
 * What a finished run of an enabled user strategy (its strategy_run task) means for it, in the
 * task's transaction. A success clears the failure count and moves `last_run_at` to the instant the
 * run covered up to (its task's scheduled time: the next round-up starts there). A failure counts,
 * and the third in a row moves the strategy to `error` with the last error (the user enables it
 * again once fixed). A strategy deleted or no longer enabled has nothing to record.
 */
export async function recordStrategyRun(tx: AgentsTx, userStrategyId: string, run: { error: string | null; covered_until: Date }): Promise<void> {
  const strategy = await tx.userStrategy.findUnique({ where: { id: userStrategyId } });
  if (!strategy || strategy.status !== "enabled") return;
  if (run.error === null) {
    const lastRun = strategy.last_run_at && strategy.last_run_at > run.covered_until ? strategy.last_run_at : run.covered_until;
    await tx.userStrategy.update({ where: { id: strategy.id }, data: { consecutive_failures: 0, last_run_at: lastRun } });
    return;
  }
  const failures = strategy.consecutive_failures + 1;
  await tx.userStrategy.update({ where: { id: strategy.id }, data: { consecutive_failures: failures, last_error: run.error } });
  if (failures >= MAX_CONSECUTIVE_FAILURES) await moveUserStrategy(tx, strategy, "error", "run_failures", run.error);
}
