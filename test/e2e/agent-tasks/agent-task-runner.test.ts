import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../lib/db/database.ts";
import { applyMigrations } from "../../../lib/db/migrations.ts";
import { JobQueue } from "../../../lib/jobs/job-queue.ts";
import { createLogger } from "../../../lib/logger.ts";
import { createAgentsDb, type AgentsDb } from "../../../subgraphs/agents/db.ts";
import { AGENT_TASK_JOB, cancelAgentTask, createAgentTask } from "../../../subgraphs/agents/tasks/agent-tasks.ts";
import type { TaskKinds } from "../../../subgraphs/agents/tasks/task-kinds.ts";
import { taskRunner } from "../../../subgraphs/agents/tasks/task-runner.ts";
import { countingKinds } from "../../support/agent-task-kinds.ts";
import { freshDatabaseUrl } from "../../support/test-database.ts";

// The agent task runner against a real database: cooperative cancel, at most one runner per task
// across connections, and a worker process killed mid-task (PostgreSQL: PGlite has one process).
const logger = createLogger("silent");
let databaseUrl: string | undefined;
let databases: Database[] = [];
let clients: AgentsDb[] = [];
let child: ChildProcess | undefined;

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl();
  const first = await openDatabase({ databaseUrl, dataDir: "memory://" });
  await applyMigrations(first, ["agents"]);
  const second = databaseUrl ? await openDatabase({ databaseUrl, dataDir: "memory://" }) : first;
  databases = databaseUrl ? [first, second] : [first];
  clients = [createAgentsDb(first), createAgentsDb(second)];
});
afterAll(async () => {
  child?.kill("SIGKILL");
  for (const client of clients) await client.$disconnect();
  for (const database of databases) await database.close();
});

const runner = (db: AgentsDb, kinds: TaskKinds, leaseMs = 60_000) => new JobQueue({ db, schema: "agents", logger, leaseMs, handlers: { [AGENT_TASK_JOB]: taskRunner({ db, kinds, logger }) } });
const statusOf = async (id: string) => (await clients[0]!.agentTask.findUniqueOrThrow({ where: { id } })).status;
async function until(condition: () => Promise<boolean>, what: string, attempts = 500): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}
const history = async (id: string) => (await clients[0]!.agentTaskStatusChange.findMany({ where: { task_id: id }, orderBy: { id: "asc" } })).map((row) => `${row.from ?? "∅"}→${row.to}`);

describe("the agent task runner", () => {
  it("cancels a running task cooperatively: the request is recorded, the kind stops at its next check", async () => {
    const runs = new Map<string, number>();
    let release!: () => void;
    const kinds = countingKinds(runs, { until: new Promise<void>((resolve) => (release = resolve)) });
    const task = await createAgentTask(clients[0]!, kinds, "usr_cancel", { kind: "work", input: {}, scheduled_at: null, title: null });
    const draining = runner(clients[0]!, kinds).drain();
    await until(async () => (await statusOf(task.id)) === "running", "the task to run");
    const asked = await cancelAgentTask(clients[0]!, "usr_cancel", task.id);
    expect(asked).toMatchObject({ status: "running", cancel_requested_at: expect.any(Date) });
    await draining;
    release();
    expect(await statusOf(task.id)).toBe("cancelled");
    expect(await history(task.id)).toEqual(["∅→queued", "queued→next", "next→running", "running→cancelled"]);
    await expect(cancelAgentTask(clients[0]!, "usr_cancel", task.id)).rejects.toMatchObject({ code: "TSK-409-001" });
  });

  it("runs each task once with several runners on their own connections", async () => {
    const runs = new Map<string, number>();
    const kinds = countingKinds(runs);
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push((await createAgentTask(clients[0]!, kinds, "usr_many", { kind: "work", input: {}, scheduled_at: null, title: null })).id);
    await Promise.all(clients.map((db) => runner(db, kinds).drain()));
    expect(ids.map((id) => runs.get(id))).toEqual(ids.map(() => 1));
    const tasks = await clients[0]!.agentTask.findMany({ where: { id: { in: ids } } });
    expect(tasks.every((task) => task.status === "completed" && task.attempts === 1)).toBe(true);
  });

  it("completes a task once after its runner is killed mid-task and the lease runs out (PostgreSQL)", { timeout: 120_000 }, async (context) => {
    if (!databaseUrl) return context.skip();
    const runs = new Map<string, number>();
    const kinds = countingKinds(runs);
    const task = await createAgentTask(clients[0]!, kinds, "usr_killed", { kind: "work", input: {}, scheduled_at: null, title: null });
    child = spawn(process.execPath, ["--import", "tsx", "test/support/agent-task-worker.ts", databaseUrl, "3000"], { stdio: ["ignore", "pipe", "inherit"] });
    // a loaded machine takes a while to start a TypeScript process: wait for it to say so, then for the task
    await new Promise<void>((resolve, reject) => {
      child!.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
      child!.once("exit", (code) => reject(new Error(`the worker exited with ${code}`)));
    });
    await until(async () => (await statusOf(task.id)) === "running" || child!.exitCode !== null, "the worker process to take the task", 3000);
    expect(child.exitCode, "the worker must still be running").toBeNull();
    child.kill("SIGKILL");
    await new Promise((resolve) => child!.once("exit", resolve));

    // inside the lease nobody else takes it
    expect(await runner(clients[1]!, kinds).drain()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 3100));
    expect(await runner(clients[1]!, kinds).drain()).toBe(1);
    const done = await clients[0]!.agentTask.findUniqueOrThrow({ where: { id: task.id } });
    expect(done).toMatchObject({ status: "completed", attempts: 2, output: { run: 1, attempts: 2 } });
    expect(await history(task.id)).toEqual(["∅→queued", "queued→next", "next→running", "running→completed"]);
    expect(await runner(clients[0]!, kinds).drain()).toBe(0);
  });
});
