import { Type } from "@sinclair/typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appError } from "../../lib/errors/app-error.ts";
import { JobQueue, type JobRow } from "../../lib/jobs/job-queue.ts";
import { createLogger } from "../../lib/logger.ts";
import type { AgentsDb, Prisma } from "../../subgraphs/agents/db.ts";
import { fireRule, type RuleRow } from "../../subgraphs/agents/rules/fire-rule.ts";
import { AGENT_TASK_JOB, createAgentTask } from "../../subgraphs/agents/tasks/agent-tasks.ts";
import type { TaskKinds } from "../../subgraphs/agents/tasks/task-kinds.ts";
import { taskRunner } from "../../subgraphs/agents/tasks/task-runner.ts";
import { countingKinds } from "../support/agent-task-kinds.ts";
import { openAgentsDb } from "../support/agents-db.ts";

// Issue 29: the agents subgraph's outgoing events are an outbox, written with the change they
// report: a task reaching its final status (agent_task.finished), a rule's action run (user_rule.fired).
const logger = createLogger("silent");
let db: AgentsDb;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openAgentsDb());
});
afterAll(() => close());

const eventsOf = (userId: string) => db.outgoingEvent.findMany({ where: { user_id: userId }, orderBy: { id: "asc" } });
const drain = (kinds: TaskKinds) => new JobQueue({ db, schema: "agents", logger, leaseMs: 60_000, handlers: { [AGENT_TASK_JOB]: taskRunner({ db, kinds, logger }) } }).drain();
/** A kind whose run fails: the task itself wrong (4xx) fails it at once. */
const refusingKinds: TaskKinds = {
  work: { description: "test", input: Type.Object({}), title: () => "refused", prepare: async () => ({ user_strategy_id: null }), run: async () => Promise.reject(appError("WAL-404-001", "The wallet is gone.")) },
};

async function newRule(userId: string, action_type: "notification" | "strategy_trigger", action: Prisma.InputJsonObject = {}): Promise<RuleRow> {
  return db.userRule.create({
    data: { id: `rul_${userId}_${action_type}`, user_id: userId, name: "Big deposits", trigger_type: "transaction_received", trigger: {}, action_type, action },
    select: { id: true, user_id: true, name: true, action_type: true, action: true, created_with_scopes: true, last_fired_at: true },
  });
}

describe("the agents outbox", () => {
  it("writes agent_task.finished once when a task completes, and nothing more when its run or its exhaustion is replayed", async () => {
    const kinds = countingKinds(new Map());
    const task = await createAgentTask(db, kinds, "usr_done", { kind: "work", input: {}, scheduled_at: null, title: null });
    await drain(kinds);
    const rows = await eventsOf("usr_done");
    expect(rows).toEqual([
      expect.objectContaining({ event_id: expect.stringMatching(/^evt_[0-9a-z]{26}$/), type: "agent_task.finished", resource_type: "agent_task", resource_id: task.id, relayed_at: null }),
    ]);
    const finished = await db.agentTask.findUniqueOrThrow({ where: { id: task.id } });
    expect(rows[0]!.data).toEqual({
      id: task.id,
      user_id: "usr_done",
      kind: "work",
      status: "completed",
      error: null,
      user_strategy_id: null,
      attempts: 1,
      scheduled_at: finished.scheduled_at.getTime(),
      finished_at: finished.finished_at!.getTime(),
    });

    // the job delivered again (a lost acknowledgement) and its exhaustion: the task is final, nothing moves or emits
    const job = { id: "job_replayed", kind: AGENT_TASK_JOB, key: task.id, payload: { task_id: task.id }, attempts: 2, max_attempts: 3 } satisfies JobRow;
    const handler = taskRunner({ db, kinds, logger });
    await handler.run(job);
    await handler.exhausted!(job, new Error("late"));
    expect(await eventsOf("usr_done")).toHaveLength(1);
  });

  it("writes agent_task.finished with the failure when a task fails", async () => {
    const task = await createAgentTask(db, refusingKinds, "usr_failed", { kind: "work", input: {}, scheduled_at: null, title: null });
    await drain(refusingKinds);
    const rows = await eventsOf("usr_failed");
    expect(rows.map((row) => row.data)).toEqual([expect.objectContaining({ id: task.id, status: "failed", error: "The wallet is gone.", attempts: 1 })]);
  });

  it("writes no user_rule.fired when the firing's transaction fails after the emit, exactly one when it commits, none for the same event again", async () => {
    const rule = await newRule("usr_rule", "notification", { title: "Big deposit" });
    const event = { key: "ledger:41", data: { amount: "750" }, description: "750 USDC received" };
    await expect(
      db.$transaction(async (tx) => {
        expect(await fireRule(tx, rule, event)).toMatch(/^rex_/);
        throw new Error("the firing fails after its event was written");
      }),
    ).rejects.toThrow("fails after");
    expect(await eventsOf("usr_rule")).toEqual([]);
    expect(await db.userRuleExecution.count({ where: { rule_id: rule.id } })).toBe(0);

    const execution = await db.$transaction((tx) => fireRule(tx, rule, event));
    const rows = await eventsOf("usr_rule");
    expect(rows).toEqual([expect.objectContaining({ type: "user_rule.fired", resource_type: "user_rule", resource_id: rule.id })]);
    const stored = await db.userRuleExecution.findUniqueOrThrow({ where: { id: execution! } });
    expect(rows[0]!.data).toEqual({
      id: execution,
      rule_id: rule.id,
      user_id: "usr_rule",
      action_type: "notification",
      outcome: "fired",
      detail: null,
      task_id: null,
      event_key: "ledger:41",
      created_at: stored.created_at.getTime(),
    });

    // the ledger event applied again: the rule does not fire twice
    expect(await db.$transaction((tx) => fireRule(tx, rule, event))).toBeNull();
    expect(await eventsOf("usr_rule")).toHaveLength(1);
  });

  it("writes user_rule.fired with outcome failed when the rule's action cannot start, and none for a firing skipped inside its cooldown", async () => {
    const rule = await newRule("usr_gone", "strategy_trigger", { user_strategy_id: "ust_gone" });
    await db.$transaction((tx) => fireRule(tx, rule, { key: "time:1", data: {}, description: "tick" }));
    const fired = await db.userRule.findUniqueOrThrow({ where: { id: rule.id } });
    await db.$transaction((tx) => fireRule(tx, { ...rule, last_fired_at: fired.last_fired_at }, { key: "time:2", data: {}, description: "tick" }));
    expect((await db.userRuleExecution.findMany({ where: { rule_id: rule.id }, orderBy: { event_key: "asc" } })).map((row) => row.outcome)).toEqual(["failed", "skipped"]);
    expect((await eventsOf("usr_gone")).map((row) => row.data)).toEqual([
      expect.objectContaining({ rule_id: rule.id, action_type: "strategy_trigger", outcome: "failed", detail: "Strategy ust_gone no longer exists.", task_id: null }),
    ]);
  });
});
