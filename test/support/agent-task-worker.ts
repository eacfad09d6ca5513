// A separate process running agent tasks whose one kind never finishes: the kill -9 test starts
// it, waits for it to hold a task, and kills it mid-task (test/e2e/agent-tasks/agent-task-runner.test.ts).
import { openDatabase } from "../../lib/db/database.ts";
import { JobQueue } from "../../lib/jobs/job-queue.ts";
import { createLogger } from "../../lib/logger.ts";
import { createAgentsDb } from "../../subgraphs/agents/db.ts";
import { AGENT_TASK_JOB } from "../../subgraphs/agents/tasks/agent-tasks.ts";
import { taskRunner } from "../../subgraphs/agents/tasks/task-runner.ts";
import { stuckKinds } from "./agent-task-kinds.ts";

const [databaseUrl, leaseMs] = process.argv.slice(2);
const database = await openDatabase({ databaseUrl: databaseUrl!, dataDir: "memory://" });
const db = createAgentsDb(database);
const logger = createLogger("silent");
new JobQueue({ db, schema: "agents", logger, leaseMs: Number(leaseMs), pollMs: 20, idleMs: 20, handlers: { [AGENT_TASK_JOB]: taskRunner({ db, kinds: stuckKinds(), logger }) } }).start();
// the queue's timers are unref'd (they never hold a server open): this process lives until it is killed
setInterval(() => undefined, 60_000);
process.stdout.write("ready\n");
