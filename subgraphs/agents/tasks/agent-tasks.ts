import type { AutomationCause } from "../../../lib/automation-finance.ts";
import { appError, AppError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import { checkJsonAt } from "../../../lib/json-validation.ts";
import { JobQueue } from "../../../lib/jobs/job-queue.ts";
import type { AgentTaskStatus } from "../../../lib/vocabulary/agents.ts";
import { requireOneOf } from "../../../lib/vocabulary/values.ts";
import { Prisma, type AgentsDb, type AgentsTx } from "../db.ts";
import { agentWrite, storedResponse, withIdempotency } from "../idempotency.ts";
import type { TaskKinds } from "./task-kinds.ts";
import { requireTaskMove } from "./task-status.ts";

/** The job kind that runs agent tasks (tasks/task-runner.ts); its key is the task id. */
export const AGENT_TASK_JOB = "agent_task";
/** Runs a task may start before it fails for good (a dead runner's run counts). */
export const AGENT_TASK_MAX_ATTEMPTS = 3;
/** How far ahead a task may be scheduled. */
const MAX_SCHEDULE_AHEAD_MS = 366 * 86_400_000;

const WITH_HISTORY = { status_history: { orderBy: { id: "asc" } } } as const;
type TaskRow = Prisma.AgentTaskGetPayload<{ include: typeof WITH_HISTORY }>;

export function agentTaskView(row: TaskRow) {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    input: row.input as Record<string, unknown>,
    status: row.status as AgentTaskStatus,
    output: (row.output ?? null) as Record<string, unknown> | null,
    error: row.error,
    user_strategy_id: row.user_strategy_id,
    scheduled_at: row.scheduled_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
    cancel_requested_at: row.cancel_requested_at,
    attempts: row.attempts,
    status_history: row.status_history.map((change) => ({ from: change.from, to: change.to, changed_at: change.changed_at })),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type AgentTaskView = ReturnType<typeof agentTaskView>;

export async function loadTask(db: AgentsDb | AgentsTx, userId: string, id: string): Promise<TaskRow> {
  const row = await db.agentTask.findFirst({ where: { id, user_id: userId }, include: WITH_HISTORY });
  if (!row) throw appError("TSK-404-001");
  return row;
}

/**
 * Creates a task (queued, with its first status_history row) and its job in one transaction: the
 * kind must exist (422 at kind), its input meet the kind's schema (422 at input.<field>)
 * and the kind's checks for the user; `scheduled_at` (default now) at most a year ahead. With an
 * Idempotency-Key, a retry answers the first task and queues nothing.
 */
export async function createAgentTask(
  db: AgentsDb,
  kinds: TaskKinds,
  userId: string,
  request: { kind: string; input: Record<string, unknown> | null; scheduled_at: Date | null; title: string | null; idempotency_key?: string | null },
  now = new Date(),
): Promise<AgentTaskView> {
  const write = agentWrite<AgentTaskView>(userId, request.idempotency_key, "create_agent_task", { kind: request.kind, input: request.input, scheduled_at: request.scheduled_at, title: request.title });
  const answered = await storedResponse(db, write);
  if (answered) return answered;
  const kind = kinds[requireOneOf(Object.keys(kinds).filter((name) => !kinds[name]!.internal), request.kind, ["kind"])]!;
  const input = checkJsonAt(kind.input, request.input, ["input"]);
  const scheduled = request.scheduled_at ?? now;
  if (Number.isNaN(scheduled.getTime()) || scheduled.getTime() - now.getTime() > MAX_SCHEDULE_AHEAD_MS)
    throw new AppError("GEN-422-001", { validation: [{ type: "value_error", loc: ["scheduled_at"], msg: "Value error, scheduled_at must be an instant at most a year ahead", input: request.scheduled_at, ctx: {} }] });
  const { user_strategy_id } = await kind.prepare(db, userId, input);
  return withIdempotency(db, write, async (tx) => {
    const id = await insertAgentTask(tx, { user_id: userId, kind: request.kind, title: request.title ?? kind.title(input), input, scheduled_at: scheduled, user_strategy_id, dedupe_key: null }, now);
    return agentTaskView(await loadTask(tx, userId, id!));
  });
}

export interface NewAgentTask {
  user_id: string;
  kind: string;
  title: string;
  input: Record<string, unknown>;
  scheduled_at: Date;
  user_strategy_id: string | null;
  /** automation's cause (a ledger event, a schedule slot, a rule firing): a second task for it is not made */
  dedupe_key: string | null;
  /** the chain of automations that led to it (kept with the task, so it outlives the job queue); its movements carry it */
  cause?: AutomationCause | null;
}

/**
 * Writes a queued task, its first status_history row and its job, in the caller's transaction;
 * answers its id, or null when a task for the same `dedupe_key` exists already.
 */
export async function insertAgentTask(tx: AgentsTx, task: NewAgentTask, now = new Date()): Promise<string | null> {
  if (task.dedupe_key !== null && (await tx.agentTask.findUnique({ where: { dedupe_key: task.dedupe_key }, select: { id: true } }))) return null;
  const id = newId("tsk", now.getTime());
  await tx.agentTask.create({
    data: {
      id,
      user_id: task.user_id,
      kind: task.kind,
      title: task.title,
      input: task.input as Prisma.InputJsonValue,
      status: "queued",
      scheduled_at: task.scheduled_at,
      user_strategy_id: task.user_strategy_id,
      dedupe_key: task.dedupe_key,
      ...(task.cause && { cause: task.cause as unknown as Prisma.InputJsonValue }),
      created_at: now,
      updated_at: now,
      status_history: { create: { from: null, to: "queued", changed_at: now } },
    },
  });
  await JobQueue.enqueue(tx, "agents", { id: newId("job"), kind: AGENT_TASK_JOB, key: id, payload: { task_id: id }, runAt: task.scheduled_at, maxAttempts: AGENT_TASK_MAX_ATTEMPTS });
  return id;
}

export async function listAgentTasks(db: AgentsDb, userId: string, filter: { status: AgentTaskStatus | null; limit: number }): Promise<AgentTaskView[]> {
  const where = { user_id: userId, ...(filter.status !== null && { status: filter.status }) };
  return (await db.agentTask.findMany({ where, include: WITH_HISTORY, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: filter.limit })).map(agentTaskView);
}

/**
 * Moves a task through spec 3.5's table (TSK-409-001 otherwise) with its history row, in the
 * caller's transaction; matched on the status read, so of two racing moves one applies.
 */
export async function moveTask(tx: AgentsTx, row: { id: string; status: string }, to: AgentTaskStatus, data: Prisma.AgentTaskUpdateManyMutationInput = {}, now = new Date()): Promise<void> {
  const from = row.status as AgentTaskStatus;
  requireTaskMove(from, to);
  const { count } = await tx.agentTask.updateMany({ where: { id: row.id, status: from }, data: { ...data, status: to, updated_at: now } });
  if (count === 0) throw appError("TSK-409-001", "The task changed while it was being moved; read it again.");
  await tx.agentTaskStatusChange.create({ data: { task_id: row.id, from, to, changed_at: now } });
}

/**
 * Asks a running task to stop (spec 3.5: running → cancelled; any other status is TSK-409-001
 * naming it). Cooperative: the runner moves it to cancelled at its next safe point, so the answer
 * still shows it running, with cancel_requested_at set; a run that finishes first completes. With
 * an Idempotency-Key, a retry answers the first request's answer (not TSK-409-001 once cancelled).
 */
export async function cancelAgentTask(db: AgentsDb, userId: string, id: string, idempotencyKey: string | null = null): Promise<AgentTaskView> {
  return withIdempotency(db, agentWrite<AgentTaskView>(userId, idempotencyKey, "cancel_agent_task", { id }), async (tx) => {
    const row = await loadTask(tx, userId, id);
    requireTaskMove(row.status as AgentTaskStatus, "cancelled");
    if (row.cancel_requested_at === null) {
      const { count } = await tx.agentTask.updateMany({ where: { id: row.id, status: "running" }, data: { cancel_requested_at: new Date() } });
      if (count === 0) requireTaskMove((await loadTask(tx, userId, id)).status as AgentTaskStatus, "cancelled");
    }
    return agentTaskView(await loadTask(tx, userId, id));
  });
}
