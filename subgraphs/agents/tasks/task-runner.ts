import type { AutomationCause } from "../../../lib/automation-finance.ts";
import { AppError } from "../../../lib/errors/app-error.ts";
import type { JobHandler, JobRow } from "../../../lib/jobs/job-queue.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { AgentTaskFinalStatus, AgentTaskStatus } from "../../../lib/vocabulary/agents.ts";
import { Prisma, type AgentsDb } from "../db.ts";
import { emitEvent } from "../outbox/outgoing-events.ts";
import { recordStrategyRun } from "../strategies/strategy-runs.ts";
import { moveTask } from "./agent-tasks.ts";
import type { TaskKinds } from "./task-kinds.ts";
import { isFinalTaskStatus } from "./task-status.ts";

export interface TaskRunnerOptions {
  db: AgentsDb;
  kinds: TaskKinds;
  logger: Logger;
}

/**
 * The job handler that runs agent tasks (one job per task, key = task id; lib/jobs/job-queue.ts
 * claims it with FOR UPDATE SKIP LOCKED and a lease, so one runner holds it at a time). A due task
 * moves queued → next → running; a runner that died mid-task leaves it running, and the next
 * runner, after the lease, runs it again from the start (kinds are safe to repeat). It ends
 * completed with the kind's output, cancelled when the user asked and the kind stopped, or failed:
 * at once on a 4xx AppError (the task itself is wrong), after the last attempt on anything else.
 */
export function taskRunner(options: TaskRunnerOptions): JobHandler {
  const { db, kinds, logger } = options;

  /** The one place a task reaches a final status; a finish replayed after it did (a late runner, an exhausted job) changes and emits nothing. */
  async function finish(taskId: string, to: AgentTaskFinalStatus, data: { output?: Record<string, unknown>; error?: string }): Promise<void> {
    await db.$transaction(async (tx) => {
      const task = await tx.agentTask.findUniqueOrThrow({ where: { id: taskId } });
      if (task.status !== "running") return;
      const now = new Date();
      const error = data.error ? data.error.slice(0, 2000) : null;
      await moveTask(tx, task, to, { finished_at: now, ...(data.output && { output: data.output as Prisma.InputJsonValue }), ...(error && { error }) }, now);
      if (task.user_strategy_id && to !== "cancelled") await recordStrategyRun(tx, task.user_strategy_id, { error: to === "completed" ? null : (data.error ?? "failed"), covered_until: task.scheduled_at });
      await emitEvent(tx, {
        type: "agent_task.finished",
        user_id: task.user_id,
        resource: { type: "agent_task", id: task.id },
        data: { id: task.id, user_id: task.user_id, kind: task.kind, status: to, error, user_strategy_id: task.user_strategy_id, attempts: task.attempts, scheduled_at: task.scheduled_at.getTime(), finished_at: now.getTime() },
      });
    });
  }

  return {
    async run(job: JobRow) {
      const { task_id } = job.payload as { task_id: string };
      const task = await db.agentTask.findUnique({ where: { id: task_id } });
      if (!task || isFinalTaskStatus(task.status as AgentTaskStatus)) return { outcome: "done" };
      await db.$transaction(async (tx) => {
        const now = new Date();
        if (task.status === "queued") await moveTask(tx, task, "next", {}, now);
        if (task.status === "queued" || task.status === "next") await moveTask(tx, { id: task.id, status: "next" }, "running", { started_at: now, attempts: { increment: 1 } }, now);
        // running already: the runner before this one died mid-task; its run counts, and so does this one
        else await tx.agentTask.update({ where: { id: task.id }, data: { attempts: { increment: 1 } } });
      });
      const kind = kinds[task.kind];
      if (!kind) {
        await finish(task.id, "failed", { error: `This platform no longer runs tasks of kind ${task.kind}.` });
        return { outcome: "done" };
      }
      const cancelRequested = async () => (await db.agentTask.findUniqueOrThrow({ where: { id: task.id }, select: { cancel_requested_at: true } })).cancel_requested_at !== null;
      if (await cancelRequested()) {
        await finish(task.id, "cancelled", {});
        return { outcome: "done" };
      }
      const attempts = task.attempts + 1;
      try {
        const result = await kind.run({ task: { id: task.id, user_id: task.user_id, input: task.input as Record<string, unknown>, attempts, cause: (task.cause ?? null) as AutomationCause | null }, cancelRequested, trace_id: `task-${task.id}` });
        if ("cancelled" in result) await finish(task.id, "cancelled", {});
        else await finish(task.id, "completed", { output: result.output });
      } catch (error) {
        // the task itself is wrong (4xx): retrying cannot help; a dependency down (5xx) may pass
        if (error instanceof AppError && error.status < 500) {
          await finish(task.id, "failed", { error: error.detail });
          return { outcome: "done" };
        }
        logger.warn({ err: error, task_id: task.id, attempt: job.attempts }, "agent task failed; retried while attempts remain");
        throw error;
      }
      return { outcome: "done" };
    },
    async exhausted(job: JobRow, error: unknown) {
      const { task_id } = job.payload as { task_id: string };
      await finish(task_id, "failed", { error: error instanceof Error ? error.message : String(error) });
    },
  };
}
