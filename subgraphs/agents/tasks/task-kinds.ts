import type { TSchema } from "@sinclair/typebox";
import type { AutomationCause } from "../../../lib/automation-finance.ts";
import type { AgentsDb } from "../db.ts";

/** What a running task's kind gets: its task, and a way to ask whether the user cancelled it meanwhile. */
export interface TaskRun {
  /** `cause`: the automations that led to it (null for a task the user made) */
  task: { id: string; user_id: string; input: Record<string, unknown>; attempts: number; cause: AutomationCause | null };
  /** true once the user asked to cancel: stop at the next safe point and return `{ cancelled: true }`'s effect */
  cancelRequested(): Promise<boolean>;
  trace_id: string;
}

/** What a kind answers: its output, or that it stopped because the user cancelled it. */
export type TaskResult = { output: Record<string, unknown> } | { cancelled: true };

/**
 * A kind of agent task: the JSON Schema of its input (checked when the task is created, 422 with
 * the failing field), what it checks about the input for the user then (ownership: a 404 names
 * what is not theirs), and its run. A run must be safe to repeat: a runner that dies mid-task
 * leaves it to another after its lease, which runs it again from the start. A 4xx AppError fails
 * the task for good; anything else is retried with backoff, and fails it after the last attempt.
 */
export interface TaskKind {
  /** made only by automation (a rule's transfer), never by POST /v0/agent-tasks */
  internal?: boolean;
  input: TSchema;
  description: string;
  title(input: Record<string, unknown>): string;
  prepare(db: AgentsDb, userId: string, input: Record<string, unknown>): Promise<{ user_strategy_id: string | null }>;
  run(run: TaskRun): Promise<TaskResult>;
}

export type TaskKinds = Record<string, TaskKind>;
