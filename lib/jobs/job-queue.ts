import { recordJobFailure, registerJobQueue } from "../metrics.ts";
import type { Logger } from "../logger.ts";
import { BackgroundRun, untraced } from "../tracing.ts";
import type { Notifications } from "../db/notifications.ts";

/** The slice of a Prisma client the queue needs; each subgraph passes its own client. */
export interface RawSql {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

export interface JobRow {
  id: string;
  kind: string;
  key: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
}

/** `done`: finished (successfully or for good); `later`: not yet, look again after the delay. */
export type JobOutcome = { outcome: "done" } | { outcome: "later"; afterMs: number };

export interface JobHandler {
  /**
   * Runs the job, traced as one root span with its queries as children. A standing job's run is
   * a poll: it is traced only from what it finds to do, which it runs through `tracedWork`
   * (lib/tracing.ts), so a pass that finds nothing exports no span.
   */
  run(job: JobRow): Promise<JobOutcome>;
  /** called once when a job has failed `max_attempts` times; records the failure in the domain */
  exhausted?(job: JobRow, error: unknown): Promise<void>;
}

export interface JobQueueOptions {
  db: RawSql;
  /** the subgraph's PostgreSQL schema holding its `jobs` table */
  schema: string;
  handlers: Record<string, JobHandler>;
  logger: Logger;
  /** the shortest pause between two polls (default 500 ms) */
  pollMs?: number;
  /**
   * The longest an idle queue sleeps (default 10 s): between polls it sleeps until its next due
   * job, and this bounds how late it sees a job another process enqueued without waking it (its
   * notification lost, or no `notifications`).
   */
  idleMs?: number;
  /**
   * The process's database's LISTEN (lib/db/database.ts): every enqueue and request NOTIFYs
   * `jobs_<schema>` with the job's due time when its transaction commits, so the queues of every
   * process on the database wake then, this process's included. Without it only this process's
   * enqueues wake the queue.
   */
  notifications?: Notifications;
  batchSize?: number;
  /** how long a claimed job stays invisible to other workers before it counts as abandoned */
  leaseMs?: number;
  /**
   * Standing jobs: one row per kind (its key is the kind), made by the first poll that reaches the
   * database, whichever process that is; their handlers answer `later` to run again.
   */
  standing?: readonly string[];
  /**
   * Standing jobs to run at once on a NOTIFY of another channel (channel → kind), e.g. the
   * ledger-event consumer on finance's `finance_ledger_events`: the notification asks for the job
   * (`request`), whose own NOTIFY wakes whichever process's queue is idle. Needs `notifications`.
   */
  standingWakeups?: Readonly<Record<string, string>>;
  /**
   * Claims only jobs of these kinds (default: every kind). Several queues on one table can split
   * its kinds, so one kind's slow runs (a webhook receiver taking its 10 s) do not hold up another's.
   */
  kinds?: readonly string[];
}

/** The jobs tables' own default for max_attempts. */
const DEFAULT_MAX_ATTEMPTS = 8;

/** The started queues of this process by schema that do not listen, so an enqueue here wakes them (see `hint`). */
const started = new Map<string, Set<JobQueue>>();

/** The channel an enqueue on `schema` NOTIFYs, its payload the job's due time in epoch ms. */
export function jobsChannel(schema: string): string {
  return `jobs_${schema}`;
}

/** A row written by the statement (RETURNING run_at) NOTIFYs the listening queues, on commit. */
function notifying(schema: string, write: string): string {
  return `WITH j AS (${write} RETURNING run_at) SELECT pg_notify('${jobsChannel(schema)}', (extract(epoch FROM j.run_at) * 1000)::bigint::text) FROM j`;
}

/**
 * How long to sleep after a poll: until the next job falls due (`dueInMs`, null when none is
 * waiting), within the poll and idle bounds. A `wake` can shorten it.
 */
export function pollDelayMs(dueInMs: number | null, bounds: { pollMs: number; idleMs: number }): number {
  return Math.max(bounds.pollMs, Math.min(bounds.idleMs, dueInMs ?? Infinity));
}

/** Exponential backoff with full jitter, capped at five minutes. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(300_000, 1000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * A durable job queue on a table: rows are claimed with `FOR UPDATE SKIP LOCKED`, so several
 * workers (processes) share the work without taking the same job; a crashed worker's lease
 * expires and the job is picked up again, so handlers must be idempotent.
 */
export class JobQueue {
  private readonly table: string;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** when the running poll was asked to look again (epoch ms; Infinity: not asked) */
  private wakeAt = Infinity;
  private nextPollAt = Infinity;
  private stopped = true;
  private standingMade = false;
  private unregisterMetrics: (() => void) | undefined;
  private unlisten: (() => void) | undefined;
  /** standing kinds being asked for (runStandingSoon); `again`: asked once more meanwhile */
  private readonly standingRequests = new Map<string, { again: boolean }>();

  constructor(private readonly options: JobQueueOptions) {
    if (!/^[a-z_]+$/.test(options.schema)) throw new Error(`invalid schema name ${options.schema}`);
    this.table = `"${options.schema}"."jobs"`;
  }

  /** Enqueue inside the caller's transaction (pass the transaction as `db`); one live job per key. */
  static async enqueue(db: RawSql, schema: string, job: { id: string; kind: string; key: string; payload: unknown; runAt?: Date; maxAttempts?: number }): Promise<void> {
    await db.$executeRawUnsafe(
      notifying(schema, `INSERT INTO "${schema}"."jobs" (id, kind, key, payload, run_at, max_attempts, updated_at) VALUES ($1, $2, $3, $4::jsonb, $5, $6, now()) ON CONFLICT (key) DO NOTHING`),
      job.id,
      job.kind,
      job.key,
      JSON.stringify(job.payload),
      job.runAt ?? new Date(),
      job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    );
    JobQueue.hint(schema, job.runAt);
  }

  /**
   * Asks for a standing job (one row per key, kept after it ends) to run: a finished job is queued
   * again at `runAt`, a queued one keeps the earlier of its time and `runAt` (so a burst of
   * requests runs it once), and a running one is marked to run again when it ends, so what the
   * request was about is never missed. Inside the caller's transaction, like `enqueue`.
   */
  static async request(db: RawSql, schema: string, job: { id: string; kind: string; key: string; payload: unknown; runAt?: Date }): Promise<void> {
    await db.$executeRawUnsafe(
      notifying(
        schema,
        `INSERT INTO "${schema}"."jobs" AS job (id, kind, key, payload, run_at, updated_at) VALUES ($1, $2, $3, $4::jsonb, $5, now())
         ON CONFLICT (key) DO UPDATE SET
           payload = EXCLUDED.payload,
           rerun = job.status = 'running',
           run_at = CASE WHEN job.status = 'queued' THEN LEAST(job.run_at, EXCLUDED.run_at) WHEN job.status = 'running' THEN job.run_at ELSE EXCLUDED.run_at END,
           attempts = CASE WHEN job.status IN ('succeeded', 'failed') THEN 0 ELSE job.attempts END,
           status = CASE WHEN job.status = 'running' THEN 'running' ELSE 'queued' END,
           updated_at = now()`,
      ),
      job.id,
      job.kind,
      job.key,
      JSON.stringify(job.payload),
      job.runAt ?? new Date(),
    );
    JobQueue.hint(schema, job.runAt);
  }

  /**
   * Tells this process's queues on `schema` that do not listen (the others hear the NOTIFY) that
   * a job falls due at `runAt`, so they look then
   * instead of at the end of their idle sleep. It runs inside the enqueuing transaction: a job due
   * later is committed by the time they look; a job due now is woken again by its caller after
   * commit (`wake`), since a poll that ran before the commit did not see it.
   */
  private static hint(schema: string, runAt: Date | undefined): void {
    for (const queue of started.get(schema) ?? []) queue.wake(runAt);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const notifications = this.options.notifications;
    // a notification carries the job's due time; none (the listener reconnected): look now
    if (notifications) {
      const stops = [notifications.listen(jobsChannel(this.options.schema), (runAt) => this.wake(runAt === undefined ? undefined : new Date(Number(runAt))))];
      for (const [channel, kind] of Object.entries(this.options.standingWakeups ?? {})) stops.push(notifications.listen(channel, () => this.runStandingSoon(kind)));
      this.unlisten = () => stops.forEach((stop) => stop());
    } else started.set(this.options.schema, (started.get(this.options.schema) ?? new Set()).add(this));
    this.unregisterMetrics = registerJobQueue(this.options.schema, () => this.depth());
    this.schedule(0);
  }

  /** Rows by kind and status, for the metrics scrape. */
  async depth(): Promise<{ kind: string; status: string; count: number }[]> {
    const rows = await this.options.db.$queryRawUnsafe<{ kind: string; status: string; count: bigint | number }[]>(`SELECT kind, status, count(*) AS count FROM ${this.table} GROUP BY kind, status`);
    return rows.map((row) => ({ kind: row.kind, status: row.status, count: Number(row.count) }));
  }

  /** Work is waiting (just enqueued in this process): look now, or at `at`, rather than at the next poll. */
  wake(at?: Date): void {
    if (this.stopped) return;
    const time = Math.max(Date.now(), at?.getTime() ?? 0);
    if (this.running) this.wakeAt = Math.min(this.wakeAt, time);
    else if (time < this.nextPollAt) this.schedule(time - Date.now());
  }

  /**
   * Asks for the standing job `kind` now (a notification said it has work), one request at a time:
   * notifications arriving meanwhile make one more request after it, not one each.
   */
  private runStandingSoon(kind: string): void {
    const pending = this.standingRequests.get(kind);
    if (pending) {
      pending.again = true;
      return;
    }
    const state = { again: false };
    this.standingRequests.set(kind, state);
    void untraced(async () => {
      do {
        state.again = false;
        await JobQueue.request(this.options.db, this.options.schema, { id: `job_standing_${kind}`, kind, key: kind, payload: {} }).catch((error: unknown) =>
          this.options.logger.warn({ err: error, job_kind: kind }, "job queue: a standing job could not be asked for; its next poll runs it"),
        );
      } while (state.again && !this.stopped);
    }).finally(() => this.standingRequests.delete(kind));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    started.get(this.options.schema)?.delete(this);
    this.unlisten?.();
    this.unlisten = undefined;
    this.unregisterMetrics?.();
    clearTimeout(this.timer);
    await this.running;
  }

  /** Claims and runs due jobs until none is left; returns how many ran. Tests call it directly. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const ran = await this.runBatch();
      total += ran;
      if (ran === 0) return total;
    }
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.nextPollAt = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.nextPollAt = Infinity;
      // polls are not traced (an idle queue would export a root trace each); a job run that does work is (runOne)
      this.running = untraced(() => this.tick()).then((delay) => {
        this.running = undefined;
        if (this.stopped) return;
        const woken = this.wakeAt - Date.now();
        this.wakeAt = Infinity;
        this.schedule(Math.max(0, Math.min(delay, woken)));
      });
    }, delayMs);
    this.timer.unref();
  }

  /** One poll: runs what is due, then answers how long to sleep. */
  private async tick(): Promise<number> {
    const bounds = { pollMs: this.options.pollMs ?? 500, idleMs: this.options.idleMs ?? 10_000 };
    try {
      if (!this.standingMade) {
        for (const kind of this.options.standing ?? []) await JobQueue.request(this.options.db, this.options.schema, { id: `job_standing_${kind}`, kind, key: kind, payload: {} });
        this.standingMade = true;
      }
      await this.drain();
      return pollDelayMs(await this.dueInMs(), bounds);
    } catch (error) {
      // a database outage must not kill the worker: log and poll again
      this.options.logger.warn({ err: error }, "job queue poll failed");
      return bounds.pollMs;
    }
  }

  /** Milliseconds until the next queued job falls due or a running one's lease ends; null: none. */
  private async dueInMs(): Promise<number | null> {
    const kinds = this.options.kinds ? " AND kind = ANY($1::text[])" : "";
    const [row] = await this.options.db.$queryRawUnsafe<{ due_in_ms: number | null }[]>(
      `SELECT (EXTRACT(EPOCH FROM LEAST((SELECT min(run_at) FROM ${this.table} WHERE status = 'queued'${kinds}), (SELECT min(locked_until) FROM ${this.table} WHERE status = 'running'${kinds})) - now()) * 1000)::float8 AS due_in_ms`,
      ...(this.options.kinds ? [this.options.kinds] : []),
    );
    return row?.due_in_ms ?? null;
  }

  private async runBatch(): Promise<number> {
    const leaseMs = this.options.leaseMs ?? 60_000;
    const kinds = this.options.kinds ? " AND kind = ANY($3::text[])" : "";
    const jobs = await this.options.db.$queryRawUnsafe<JobRow[]>(
      `UPDATE ${this.table} SET status = 'running', attempts = attempts + 1, locked_until = now() + ($2 || ' milliseconds')::interval, updated_at = now()
       WHERE id IN (
         SELECT id FROM ${this.table}
         WHERE ((status = 'queued' AND run_at <= now()) OR (status = 'running' AND locked_until < now()))${kinds}
         ORDER BY run_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id, kind, key, payload, attempts, max_attempts`,
      this.options.batchSize ?? 10,
      String(leaseMs),
      ...(this.options.kinds ? [this.options.kinds] : []),
    );
    for (const job of jobs) await this.runOne(job);
    return jobs.length;
  }

  private async runOne(job: JobRow): Promise<void> {
    const handler = this.options.handlers[job.kind];
    const log = this.options.logger.child({ job_id: job.id, job_kind: job.kind, attempt: job.attempts });
    const run = new BackgroundRun(`job ${job.kind}`, { "platform.job.queue": this.options.schema, "platform.job.id": job.id, "platform.job.kind": job.kind, "platform.job.attempt": job.attempts });
    // a standing job runs again and again, mostly to find nothing: traced from the work it finds
    const standing = this.options.standing?.includes(job.kind) ?? false;
    let outcome: "done" | "later" | "retry" | "failed" = "failed";
    let failure: unknown;
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      const result = await (standing ? run.look(() => handler.run(job)) : run.work(() => handler.run(job)));
      outcome = result.outcome;
      await run.after(() => this.settle(job, result));
    } catch (error) {
      failure = error;
      outcome = job.attempts >= job.max_attempts ? "failed" : "retry";
      await run.after(() => this.fail(job, handler, log, error));
    } finally {
      run.end({ "platform.job.outcome": outcome }, failure);
    }
  }

  /** Records a run's outcome: the job ended, or waits for its next run. */
  private async settle(job: JobRow, result: JobOutcome): Promise<void> {
    if (result.outcome === "done") {
      // asked for again while it ran (request): queue it once more instead of ending
      await this.options.db.$executeRawUnsafe(
        `UPDATE ${this.table} SET status = CASE WHEN rerun THEN 'queued' ELSE 'succeeded' END, attempts = CASE WHEN rerun THEN 0 ELSE attempts END,
           run_at = CASE WHEN rerun THEN now() ELSE run_at END, rerun = false, locked_until = NULL, updated_at = now() WHERE id = $1`,
        job.id,
      );
    } else {
      // waiting on the outside world is not a failed attempt; asked for again while it ran (request): at once
      await this.options.db.$executeRawUnsafe(
        `UPDATE ${this.table} SET status = 'queued', attempts = attempts - 1, rerun = false, run_at = CASE WHEN rerun THEN now() ELSE now() + ($2 || ' milliseconds')::interval END, locked_until = NULL, updated_at = now() WHERE id = $1`,
        job.id,
        String(result.afterMs),
      );
    }
  }

  /** Records a failed run: tried again after a backoff, or failed for good after its last attempt. */
  private async fail(job: JobRow, handler: JobHandler | undefined, log: Logger, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    recordJobFailure(this.options.schema, job.kind, job.attempts >= job.max_attempts);
    if (job.attempts >= job.max_attempts) {
      log.error({ err: error }, "job failed for good");
      await handler?.exhausted?.(job, error);
      await this.options.db.$executeRawUnsafe(
        `UPDATE ${this.table} SET status = CASE WHEN rerun THEN 'queued' ELSE 'failed' END, attempts = CASE WHEN rerun THEN 0 ELSE attempts END,
           run_at = CASE WHEN rerun THEN now() ELSE run_at END, rerun = false, last_error = $2, locked_until = NULL, updated_at = now() WHERE id = $1`,
        job.id,
        message,
      );
    } else {
      const delay = backoffMs(job.attempts);
      log.warn({ err: error, retry_in_ms: delay }, "job failed, will retry");
      await this.options.db.$executeRawUnsafe(
        `UPDATE ${this.table} SET status = 'queued', rerun = false, last_error = $2, run_at = now() + ($3 || ' milliseconds')::interval, locked_until = NULL, updated_at = now() WHERE id = $1`,
        job.id,
        message,
        String(delay),
      );
    }
  }
}
