import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { applyMigrations } from "../../lib/db/migrations.ts";
import { JobQueue, type JobHandler } from "../../lib/jobs/job-queue.ts";
import { createLogger } from "../../lib/logger.ts";
import { startTracing, tracedWork, untraced, type Tracing } from "../../lib/tracing.ts";
import { createUsersDb, type UsersDb } from "../../subgraphs/users/db.ts";
import { startOtlpCollector, type CollectedSpan } from "../support/otlp-collector.ts";

// Issue 32: a job run that does work is one root span, `job <kind>`, with its queries as children;
// the queue's polls, and a standing job's passes that find nothing, export no span.
let collector: Awaited<ReturnType<typeof startOtlpCollector>>;
let tracing: Tracing | undefined;
let database: Database;
let db: UsersDb;
const logger = createLogger("silent");

beforeAll(async () => {
  collector = await startOtlpCollector();
  // the batch goes out every 20 ms, so a test sees its spans at once
  process.env.OTEL_BSP_SCHEDULE_DELAY = "20";
  tracing = await startTracing({ endpoint: collector.url, serviceName: "jobs", logger });
  database = await openDatabase({ dataDir: "memory://" });
  await applyMigrations(database, ["users"]);
  db = createUsersDb(database);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.close();
  await tracing?.shutdown();
  delete process.env.OTEL_BSP_SCHEDULE_DELAY;
  await collector?.stop();
});
let mark = 0;
// the tests' own set-up runs untraced: what they see exported is the queue's alone
beforeEach(async () => {
  await untraced(() => db.job.deleteMany());
  mark = collector.spans.length;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const exported = () => collector.spans.slice(mark);

async function until<T>(find: () => T | undefined, ms = 5_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(10)) {
    const found = find();
    if (found !== undefined) return found;
  }
  throw new Error(`not within ${ms} ms`);
}

/** The run's span and every span under it, checked to form one tree. */
function runOf(root: CollectedSpan): CollectedSpan[] {
  const spans = collector.spans.filter((span) => span.traceId === root.traceId);
  const ids = new Set(spans.map((span) => span.spanId));
  expect(root.parentSpanId).toBe("");
  for (const span of spans) if (span !== root) expect(ids.has(span.parentSpanId), span.name).toBe(true);
  return spans;
}

const operations = (spans: CollectedSpan[]) => spans.filter((span) => span.name === "prisma:client:operation").map((span) => span.attributes.name);

function started(kind: string, handler: JobHandler, standing = false): JobQueue {
  const queue = new JobQueue({ db, schema: "users", logger, handlers: { [kind]: handler }, pollMs: 10, idleMs: 50, ...(standing && { standing: [kind] }) });
  queue.start();
  return queue;
}

describe("job runs' traces", () => {
  it("a job run is one root span, named for the job, with its queries (and the job row's update) as children; the polls are not traced", async () => {
    await untraced(() => JobQueue.enqueue(db, "users", { id: "job_traced", kind: "traced", key: "traced", payload: {} }));
    let runs = 0;
    const queue = started("traced", { run: async () => (runs++, await db.job.count(), { outcome: "done" }) });
    try {
      const job = await until(() => exported().find((span) => span.name === "job traced"));
      // a dozen polls more, none of them exported
      await sleep(300);
      expect(runs).toBe(1);
      expect(job.attributes).toMatchObject({ "platform.job.queue": "users", "platform.job.id": "job_traced", "platform.job.kind": "traced", "platform.job.attempt": 1, "platform.job.outcome": "done" });
      expect(operations(runOf(job)).sort()).toEqual(["Job.count", "executeRaw"]);
      expect(exported().filter((span) => span.traceId !== job.traceId)).toEqual([]);
    } finally {
      await queue.stop();
    }
  });

  it("a failed run's span says so (outcome retry)", async () => {
    await untraced(() => JobQueue.enqueue(db, "users", { id: "job_failing", kind: "failing", key: "failing", payload: {} }));
    const queue = started("failing", {
      run: async () => {
        throw new Error("no luck");
      },
    });
    try {
      const job = await until(() => exported().find((span) => span.name === "job failing"));
      expect(job.attributes).toMatchObject({ "platform.job.outcome": "retry", "platform.job.attempt": 1 });
      expect(operations(runOf(job))).toEqual(["executeRaw"]);
    } finally {
      await queue.stop();
    }
  });

  it("a standing job's passes that find nothing export nothing; a pass that finds work is one root span with that work's queries", async () => {
    let work = false;
    let passes = 0;
    const queue = started(
      "poller",
      {
        run: async () => {
          passes++;
          // the look for work: never exported
          await db.job.findMany({ where: { kind: "nothing" } });
          if (work) {
            work = false;
            await tracedWork(() => db.job.count());
          }
          return { outcome: "later", afterMs: 10 };
        },
      },
      true,
    );
    try {
      await until(() => (passes >= 10 ? true : undefined));
      await sleep(100);
      expect(exported()).toEqual([]);
      work = true;
      const job = await until(() => exported().find((span) => span.name === "job poller"));
      const seen = passes;
      await until(() => (passes >= seen + 10 ? true : undefined));
      await sleep(100);
      expect(exported().filter((span) => span.parentSpanId === "")).toEqual([job]);
      expect(job.attributes).toMatchObject({ "platform.job.kind": "poller", "platform.job.id": "job_standing_poller", "platform.job.outcome": "later" });
      // the work and the job row's update after it; not the look
      expect(operations(runOf(job)).sort()).toEqual(["Job.count", "executeRaw"]);
    } finally {
      await queue.stop();
    }
  });
});
