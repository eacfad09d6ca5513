import { Type } from "@sinclair/typebox";
import { appError } from "../../../lib/errors/app-error.ts";
import type { AutomationFinance } from "../../../lib/automation-finance.ts";
import type { AgentsDb } from "../db.ts";
import { strategyLink } from "../automation/causation.ts";
import { STRATEGY_EXECUTORS } from "../strategies/strategy-executors.ts";
import type { TaskKind } from "./task-kinds.ts";

/**
 * `strategy_run`: runs one of the user's strategies once (round-up, recurring buy, sweep, alerts:
 * strategies/strategy-executors.ts). Only an enabled strategy runs; its outcome counts for it
 * (strategies/strategy-runs.ts). Money moves only through finance's idempotent movements keyed by
 * the task, so a run repeated after a dead runner moves nothing twice, each carrying the task's cause.
 */
export function strategyRunKind(db: AgentsDb, finance: AutomationFinance): TaskKind {
  return {
    description: "Runs one of your strategies once: input `{ user_strategy_id }`; the output says what it did (moved, bought, notified).",
    input: Type.Object({ user_strategy_id: Type.String({ minLength: 1, maxLength: 64, description: "ust_<id>, one of yours" }) }, { additionalProperties: false }),
    title: (input) => `Run strategy ${String(input.user_strategy_id)}`,
    async prepare(store, userId, input) {
      const strategy = await store.userStrategy.findFirst({ where: { id: String(input.user_strategy_id), user_id: userId }, select: { id: true } });
      if (!strategy) throw appError("STR-404-002");
      return { user_strategy_id: strategy.id };
    },
    async run({ task, trace_id }) {
      const row = await db.agentTask.findUniqueOrThrow({ where: { id: task.id }, select: { scheduled_at: true, user_strategy_id: true } });
      const strategy = await db.userStrategy.findFirst({ where: { id: row.user_strategy_id ?? "", user_id: task.user_id } });
      if (!strategy) throw appError("STR-404-002", "The strategy was deleted before its run.");
      if (strategy.status !== "enabled") throw appError("STR-409-001", `The strategy is ${strategy.status}; only an enabled strategy runs.`);
      const execute = STRATEGY_EXECUTORS[strategy.strategy_id];
      if (!execute) throw appError("STR-404-001", `No run is known for strategy ${strategy.strategy_id}.`);
      // the run before this one (not failed or cancelled: a failed run's window is taken over by the next)
      const previous = await db.agentTask.findFirst({
        where: { user_strategy_id: strategy.id, kind: "strategy_run", id: { not: task.id }, scheduled_at: { lt: row.scheduled_at }, status: { notIn: ["failed", "cancelled"] } },
        orderBy: { scheduled_at: "desc" },
        select: { scheduled_at: true },
      });
      const output = await execute({
        db,
        finance,
        user_id: task.user_id,
        user_strategy: { id: strategy.id, parameters: strategy.parameters as Record<string, unknown>, state: strategy.state, created_at: strategy.created_at },
        task: { id: task.id, scheduled_at: row.scheduled_at, after: previous && previous.scheduled_at > strategy.created_at ? previous.scheduled_at : strategy.created_at },
        // a run the user asked for starts its own chain
        cause: task.cause ?? { root: `task:${task.id}`, chain: [strategyLink(strategy.id)], depth: 1, firing_id: task.id },
        trace_id,
      });
      return { output: { strategy_id: strategy.strategy_id, ...output } };
    },
  };
}
