import { Type } from "@sinclair/typebox";
import type { TaskKind, TaskKinds } from "../../subgraphs/agents/tasks/task-kinds.ts";

// Task kinds for the runner's own tests: what a run does is theirs to decide, the runner is the real one.

function kind(run: TaskKind["run"]): TaskKind {
  return {
    description: "test",
    input: Type.Object({}),
    title: () => "test task",
    prepare: async () => ({ user_strategy_id: null }),
    run,
  };
}

/** `work`: never finishes (a runner holding it can only die). */
export function stuckKinds(): TaskKinds {
  return { work: kind(() => new Promise(() => undefined)) };
}

/** `work`: counts its runs per task and answers which run it was; waits for `hold` while it is set, stopping when cancelled. */
export function countingKinds(runs: Map<string, number>, hold?: { until: Promise<void> }): TaskKinds {
  return {
    work: kind(async ({ task, cancelRequested }) => {
      runs.set(task.id, (runs.get(task.id) ?? 0) + 1);
      if (hold) {
        let released = false;
        void hold.until.then(() => (released = true));
        while (!released) {
          if (await cancelRequested()) return { cancelled: true };
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
      return { output: { run: runs.get(task.id)!, attempts: task.attempts } };
    }),
  };
}
