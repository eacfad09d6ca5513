import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { applyMigrations } from "../../lib/db/migrations.ts";
import { backoffMs, JobQueue, pollDelayMs, type JobHandler, type JobRow, type RawSql } from "../../lib/jobs/job-queue.ts";
import { createLogger } from "../../lib/logger.ts";
import { enableMetrics, registry } from "../../lib/metrics.ts";
import { createUsersDb, type UsersDb } from "../../subgraphs/users/db.ts";

let database: Database;
let db: UsersDb;
const logger = createLogger("silent");

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await applyMigrations(database, ["users"]);
  db = createUsersDb(database);
});
afterAll(async () => {
  await db.$disconnect();
  await database.close();
});
beforeEach(async () => {
  await db.job.deleteMany();
});

function queue(handler: JobHandler, options: { leaseMs?: number; pollMs?: number; idleMs?: number; db?: RawSql } = {}) {
  return new JobQueue({ db, schema: "users", logger, handlers: { test: handler }, ...options });
}

/** The queue's database, counting the statements it sends. */
function counted(): RawSql & { statements: number } {
  const wrapper = {
    statements: 0,
    $queryRawUnsafe: <T,>(query: string, ...values: unknown[]) => (wrapper.statements++, db.$queryRawUnsafe<T>(query, ...values)),
    $executeRawUnsafe: (query: string, ...values: unknown[]) => (wrapper.statements++, db.$executeRawUnsafe(query, ...values)),
  };
  return wrapper;
}

/** A started queue on a counting database, once its first poll is done: a claim that found nothing and one look at when the next job falls due. */
async function idleQueue(run: JobHandler["run"]) {
  const sql = counted();
  const q = queue({ run }, { db: sql, pollMs: 10, idleMs: 60_000 });
  q.start();
  await until(() => sql.statements >= 2, 2000);
  return { q, sql };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition` holds, polling every 10 ms for at most `ms`. */
async function until(condition: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(10)) if (condition()) return;
  throw new Error(`not within ${ms} ms`);
}

describe("JobQueue", () => {
  it("runs a due job once and marks it succeeded", async () => {
    const seen: unknown[] = [];
    await JobQueue.enqueue(db, "users", { id: "job_1", kind: "test", key: "k1", payload: { n: 1 } });
    expect(await queue({ run: async (job) => (seen.push(job.payload), { outcome: "done" }) }).drain()).toBe(1);
    expect(seen).toEqual([{ n: 1 }]);
    expect((await db.job.findUnique({ where: { id: "job_1" } }))!.status).toBe("succeeded");
  });

  it("with kinds, claims only those: two queues on one table run side by side, a hanging job of one holding up none of the other's", async () => {
    let release!: () => void;
    const hanging = new Promise<void>((resolve) => (release = resolve));
    const ran: string[] = [];
    const slow = new JobQueue({ db, schema: "users", logger, kinds: ["slow"], handlers: { slow: { run: async () => (ran.push("slow"), await hanging, { outcome: "done" }) } } });
    const fast = new JobQueue({ db, schema: "users", logger, kinds: ["fast"], handlers: { fast: { run: async () => (ran.push("fast"), { outcome: "done" }) } } });
    await JobQueue.enqueue(db, "users", { id: "job_slow", kind: "slow", key: "slow", payload: {} });
    await JobQueue.enqueue(db, "users", { id: "job_fast", kind: "fast", key: "fast", payload: {} });
    const slowRun = slow.drain();
    await until(() => ran.includes("slow"), 2000);
    // the fast queue neither waits for the slow job nor takes it
    expect(await fast.drain()).toBe(1);
    expect(ran).toEqual(["slow", "fast"]);
    expect(await fast.drain()).toBe(0);
    release();
    await slowRun;
    expect((await db.job.findMany({ orderBy: { id: "asc" } })).map((job) => [job.kind, job.status])).toEqual([
      ["fast", "succeeded"],
      ["slow", "succeeded"],
    ]);
  });

  it("keeps one live job per key: enqueueing the same key twice is a no-op", async () => {
    await JobQueue.enqueue(db, "users", { id: "job_a", kind: "test", key: "same", payload: {} });
    await JobQueue.enqueue(db, "users", { id: "job_b", kind: "test", key: "same", payload: {} });
    expect(await db.job.count()).toBe(1);
  });

  it("retries a failing job later with backoff, then marks it failed and calls exhausted", async () => {
    await db.job.create({ data: { id: "job_f", kind: "test", key: "kf", payload: {}, max_attempts: 2 } });
    const exhausted: string[] = [];
    const q = queue({ run: async () => Promise.reject(new Error("boom")), exhausted: async (job) => void exhausted.push(job.id) });
    await q.drain();
    let row = (await db.job.findUnique({ where: { id: "job_f" } }))!;
    expect(row).toMatchObject({ status: "queued", attempts: 1, last_error: "boom" });
    expect(row.run_at.getTime()).toBeGreaterThan(Date.now());
    await db.job.update({ where: { id: "job_f" }, data: { run_at: new Date(Date.now() - 1) } });
    await q.drain();
    row = (await db.job.findUnique({ where: { id: "job_f" } }))!;
    expect(row.status).toBe("failed");
    expect(exhausted).toEqual(["job_f"]);
  });

  it("counts failed attempts, the last one apart, and reports its rows by kind and status to the metrics", async () => {
    enableMetrics();
    const failures = async (final: string) =>
      (await registry.getSingleMetric("platform_job_failures_total")!.get()).values.find((v) => v.labels.queue === "users" && v.labels.kind === "test" && v.labels.final === final)?.value ?? 0;
    const [retried, ended] = [await failures("false"), await failures("true")];
    await db.job.create({ data: { id: "job_m", kind: "test", key: "km", payload: {}, max_attempts: 2 } });
    const q = queue({ run: async () => Promise.reject(new Error("boom")) });
    await q.drain();
    await db.job.update({ where: { id: "job_m" }, data: { run_at: new Date(Date.now() - 1) } });
    await q.drain();
    expect([await failures("false"), await failures("true")]).toEqual([retried + 1, ended + 1]);
    q.start();
    const depth = (await registry.getSingleMetric("platform_job_queue_jobs")!.get()).values;
    await q.stop();
    expect(depth).toContainEqual(expect.objectContaining({ labels: { queue: "users", kind: "test", status: "failed" }, value: 1 }));
  });

  it("reschedules a job that waits on the outside world without counting an attempt", async () => {
    await JobQueue.enqueue(db, "users", { id: "job_w", kind: "test", key: "kw", payload: {} });
    await queue({ run: async () => ({ outcome: "later", afterMs: 60_000 }) }).drain();
    const row = (await db.job.findUnique({ where: { id: "job_w" } }))!;
    expect(row).toMatchObject({ status: "queued", attempts: 0 });
    expect(row.run_at.getTime()).toBeGreaterThan(Date.now() + 50_000);
  });

  it("picks up a job whose worker died (lease expired) and never one still leased", async () => {
    await db.job.create({ data: { id: "job_l", kind: "test", key: "kl", payload: {}, status: "running", attempts: 1, locked_until: new Date(Date.now() + 60_000) } });
    const ran: JobRow[] = [];
    const q = queue({ run: async (job) => (ran.push(job), { outcome: "done" }) });
    expect(await q.drain()).toBe(0);
    await db.job.update({ where: { id: "job_l" }, data: { locked_until: new Date(Date.now() - 1) } });
    expect(await q.drain()).toBe(1);
    expect(ran[0]!.attempts).toBe(2);
  });

  it("grows the backoff with attempts, within its cap", () => {
    const fixed = () => 1;
    expect(backoffMs(1, fixed)).toBe(1000);
    expect(backoffMs(4, fixed)).toBe(8000);
    expect(backoffMs(30, fixed)).toBe(300_000);
    expect(backoffMs(3, () => 0)).toBe(2000);
  });
  describe("between polls (a started queue)", () => {
    it("sleeps until its next due job, within its poll and idle bounds", () => {
      const bounds = { pollMs: 500, idleMs: 10_000 };
      expect(pollDelayMs(null, bounds)).toBe(10_000);
      expect(pollDelayMs(3_000, bounds)).toBe(3_000);
      expect(pollDelayMs(60_000, bounds)).toBe(10_000);
      expect(pollDelayMs(-200, bounds)).toBe(500);
      expect(pollDelayMs(100, bounds)).toBe(500);
    });

    it("sends no statement while idle with nothing due", async () => {
      const { q, sql } = await idleQueue(async () => ({ outcome: "done" }));
      await sleep(300);
      await q.stop();
      // the first poll's two statements, and nothing after
      expect(sql.statements).toBe(2);
    });

    it("runs a job written by another process when it falls due, without being woken", async () => {
      const ran: number[] = [];
      const q = queue({ run: async () => (ran.push(Date.now()), { outcome: "done" }) }, { pollMs: 10, idleMs: 60_000 });
      const due = Date.now() + 400;
      // a row written directly, as another process would: no wake-up reaches this queue
      await db.job.create({ data: { id: "job_o", kind: "test", key: "ko", payload: {}, run_at: new Date(due) } });
      q.start();
      await until(() => ran.length === 1, 3000);
      await q.stop();
      expect(ran[0]).toBeGreaterThanOrEqual(due);
    });

    it("is woken by a job enqueued in this process for later, and runs it when it falls due", async () => {
      const ran: number[] = [];
      const { q } = await idleQueue(async () => (ran.push(Date.now()), { outcome: "done" }));
      const due = Date.now() + 300;
      await JobQueue.enqueue(db, "users", { id: "job_h", kind: "test", key: "kh", payload: {}, runAt: new Date(due) });
      await until(() => ran.length === 1, 3000);
      await q.stop();
      expect(ran[0]).toBeGreaterThanOrEqual(due);
    });

    it("looks again at once when woken after a commit its last poll could not see", async () => {
      const ran: string[] = [];
      const { q } = await idleQueue(async (job) => (ran.push(job.id), { outcome: "done" }));
      await db.job.create({ data: { id: "job_c", kind: "test", key: "kc", payload: {} } });
      q.wake();
      await until(() => ran.length === 1, 2000);
      await q.stop();
      expect(ran).toEqual(["job_c"]);
    });
  });

  describe("request (a standing job per key)", () => {
    const at = (ms: number) => new Date(Date.now() + ms);

    it("coalesces requests while queued: one row, the earliest time, one run", async () => {
      await JobQueue.request(db, "users", { id: "job_r1", kind: "test", key: "standing", payload: { n: 1 }, runAt: at(-1000) });
      await JobQueue.request(db, "users", { id: "job_r2", kind: "test", key: "standing", payload: { n: 2 }, runAt: at(60_000) });
      const rows = await db.job.findMany({ where: { key: "standing" } });
      expect(rows).toHaveLength(1);
      expect(rows[0]!.run_at.getTime()).toBeLessThan(Date.now());
      const runs: unknown[] = [];
      expect(await queue({ run: async (job) => (runs.push(job.payload), { outcome: "done" }) }).drain()).toBe(1);
      expect(runs).toEqual([{ n: 2 }]);
    });

    it("queues a finished job again, with its attempts reset", async () => {
      await JobQueue.request(db, "users", { id: "job_s", kind: "test", key: "again", payload: {} });
      const q = queue({ run: async () => ({ outcome: "done" }) });
      await q.drain();
      expect((await db.job.findFirst({ where: { key: "again" } }))!.status).toBe("succeeded");
      await JobQueue.request(db, "users", { id: "job_s2", kind: "test", key: "again", payload: {} });
      expect(await db.job.findFirst({ where: { key: "again" } })).toMatchObject({ id: "job_s", status: "queued", attempts: 0 });
      expect(await q.drain()).toBe(1);
    });

    it("runs once more when asked while running, so a request made mid-run is not missed", async () => {
      await JobQueue.request(db, "users", { id: "job_m", kind: "test", key: "midrun", payload: {} });
      let runs = 0;
      const q = queue({
        run: async () => {
          runs += 1;
          if (runs === 1) await JobQueue.request(db, "users", { id: "job_m2", kind: "test", key: "midrun", payload: {} });
          return { outcome: "done" };
        },
      });
      expect(await q.drain()).toBe(2);
      expect(runs).toBe(2);
      expect(await db.job.findFirst({ where: { key: "midrun" } })).toMatchObject({ status: "succeeded", rerun: false });
    });

    it("a job that ends for good while asked again runs again instead of staying failed", async () => {
      await db.job.create({ data: { id: "job_x", kind: "test", key: "fails", payload: {}, max_attempts: 1 } });
      let runs = 0;
      const q = queue({
        run: async () => {
          runs += 1;
          if (runs === 1) {
            await JobQueue.request(db, "users", { id: "job_x2", kind: "test", key: "fails", payload: {} });
            throw new Error("boom");
          }
          return { outcome: "done" };
        },
      });
      await q.drain();
      expect(runs).toBe(2);
      expect((await db.job.findFirst({ where: { key: "fails" } }))!.status).toBe("succeeded");
    });
  });
});
