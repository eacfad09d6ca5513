// The hot read statements (PREPARED, run through Database.queryTyped) pipelined on a few
// connections of their own (issue 30). Through the pool each execution was a round trip of its
// own: a write from node, a wake-up and a read of PostgreSQL's backend, a flush back and a wake-up
// of node, for some 20 us of the statement's own work. Here the executions asked for while every
// pipeline connection is busy wait, and the next free connection takes all of them as one batch:
// one write, each statement's Bind and Execute, one Sync, and one answer flushed at the Sync. Under
// load the round trips per statement fall with the batch's size; alone, a statement runs at once.
//
// One Sync makes the batch's statements one implicit transaction: fit for reads only (a write
// before a failed statement would be rolled back after it was answered). After an error PostgreSQL
// skips to the Sync, so the failed statement fails alone and the ones behind it run again.
import type { Client, Connection } from "pg";
import type { PreparedQuery, TypedRows } from "./prepared-query.ts";

/** At most this many statements in one batch: a bound on the answer node reads at once. */
const MAX_BATCH = 64;
/** What pg-pool fails a query with when no connection frees in time (prisma-errors.ts: the database unavailable). */
export const WAIT_TIMEOUT = "timeout exceeded when trying to connect";

type Query = PreparedQuery<unknown>;

interface WireConnection {
  stream: { cork?(): void; uncork?(): void };
  sync(): void;
}

/**
 * A pg Submittable running `queries` in order behind one Sync. pg's Client hands it every message
 * of the exchange; each goes to the statement answered now, `current`. `name` and `text` are that
 * statement's, for pg's bookkeeping of parsed statements (ParseComplete, ErrorResponse).
 */
export class StatementBatch {
  /** set by pg's Client (query_timeout wraps it); called once the exchange ends */
  callback?: (error: Error | null) => void;
  private sent: Query[] = [];
  private index = 0;
  private submitted = false;

  constructor(
    private readonly queries: Query[],
    /** whether `error` is PostgreSQL's ErrorResponse (the connection lives on, and skipped to the Sync) */
    private readonly isServerError: (error: Error) => boolean,
    /** the statements behind a failed one, not run: to run again */
    private readonly retry: (queries: Query[]) => void,
  ) {}

  get name(): string | undefined {
    return this.sent[this.index]?.name;
  }

  get text(): string | undefined {
    return this.sent[this.index]?.text;
  }

  submit(pgConnection: Connection): Error | null {
    const connection = pgConnection as unknown as WireConnection;
    this.submitted = true;
    // one write for the whole batch
    connection.stream.cork?.();
    try {
      for (const query of this.queries) {
        const error = query.write(pgConnection);
        if (error) query.fail(error);
        else this.sent.push(query);
      }
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: Parameters<Query["handleRowDescription"]>[0]): void {
    this.sent[this.index]?.handleRowDescription(message);
  }

  handleDataRow(message: Parameters<Query["handleDataRow"]>[0]): void {
    this.sent[this.index]?.handleDataRow(message);
  }

  handleCommandComplete(): void {
    this.sent[this.index++]?.complete();
  }

  handleEmptyQuery(): void {
    this.sent[this.index++]?.complete();
  }

  /** never sent: every execution asks for all rows */
  handlePortalSuspended(): void {}

  handleError(error: Error): void {
    const unanswered = this.sent.slice(this.index);
    this.sent = [];
    if (this.isServerError(error) && unanswered.length > 0) {
      unanswered[0]!.fail(error);
      const skipped = unanswered.slice(1);
      for (const query of skipped) query.skipped();
      if (skipped.length > 0) this.retry(skipped);
    } else {
      for (const query of unanswered) query.fail(error);
    }
    this.callback?.(error);
  }

  handleReadyForQuery(): void {
    for (const query of this.sent.slice(this.index)) query.fail(new Error(`prepared statement ${query.name}: no answer before the batch's end`));
    this.sent = [];
    this.callback?.(null);
  }

  /** The connection went without ending the exchange (pg reports that too; whichever comes first settles). */
  abandon(error: Error): void {
    for (const query of this.submitted ? this.sent.slice(this.index) : this.queries) query.fail(error);
    this.sent = [];
    this.submitted = true;
  }
}

export interface PipelineOptions {
  /** a new, unconnected client with the pool's settings (deadlines included) */
  newClient(): Client;
  /** connections of the pipeline's own */
  connections: number;
  /** how long a statement may wait for a connection to free: DATABASE_CONNECT_TIMEOUT_MS, as for the pool */
  waitMs: number;
  isServerError(error: Error): boolean;
  /** pg's message for query_timeout: the connection is closed, not reused */
  readTimeoutMessage: string;
}

/** A PoolStats too (metrics.ts): its connections count among the process's database connections. */
export class StatementPipeline {
  private readonly idle: Client[] = [];
  private readonly live = new Map<Client, StatementBatch | undefined>();
  private pending: { query: Query; since: number }[] = [];
  private scheduled = false;
  private closed = false;
  /** armed only while statements wait: an idle process is not woken */
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly options: PipelineOptions) {}

  run<T>(query: PreparedQuery<T>): Promise<TypedRows<T>> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error("the database is closed"));
      query.callback = (error, result) => (error ? reject(error) : resolve(result!));
      this.pending.push({ query: query as Query, since: Date.now() });
      this.armSweeper();
      this.schedule();
    });
  }

  get totalCount(): number {
    return this.live.size;
  }

  get idleCount(): number {
    return this.idle.length;
  }

  get waitingCount(): number {
    return this.pending.length;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.sweeper);
    for (const { query } of this.pending.splice(0)) query.fail(new Error("the database is closed"));
    await Promise.all([...this.live.keys()].map((client) => client.end().catch(() => undefined)));
  }

  /** Dispatches after the I/O callbacks of this turn of the event loop: the statements they ask for go together. */
  private schedule(): void {
    if (this.scheduled || this.pending.length === 0) return;
    if (this.idle.length === 0 && this.live.size >= this.options.connections) return;
    this.scheduled = true;
    setImmediate(this.dispatch);
  }

  private readonly dispatch = (): void => {
    this.scheduled = false;
    while (this.pending.length > 0) {
      const client = this.idle.pop() ?? this.open();
      if (!client) return;
      const batch = new StatementBatch(
        this.pending.splice(0, MAX_BATCH).map((waiting) => waiting.query),
        this.options.isServerError,
        (queries) => this.requeue(queries),
      );
      this.live.set(client, batch);
      client.query(batch as never, ((error: Error | null) => {
        if (error?.message === this.options.readTimeoutMessage) this.drop(client, error);
      }) as never);
    }
  };

  /** Statements skipped after another's error run first, in their order. */
  private requeue(queries: Query[]): void {
    const now = Date.now();
    this.pending.unshift(...queries.map((query) => ({ query, since: now })));
    this.armSweeper();
    this.schedule();
  }

  private open(): Client | undefined {
    if (this.closed || this.live.size >= this.options.connections) return undefined;
    const client = this.options.newClient();
    this.live.set(client, undefined);
    // after each exchange's ReadyForQuery, with nothing queued on it
    client.on("drain", () => {
      if (!this.live.has(client)) return;
      this.live.set(client, undefined);
      this.idle.push(client);
      this.schedule();
    });
    client.on("error", (error: Error) => this.drop(client, error));
    client.on("end", () => this.drop(client, new Error("Connection terminated")));
    client.connect().catch((error: Error) => this.drop(client, error));
    return client;
  }

  /** A connection that failed or timed out is closed and forgotten; its unanswered statements fail. */
  private drop(client: Client, error: Error): void {
    if (!this.live.has(client)) return;
    const batch = this.live.get(client);
    this.live.delete(client);
    const index = this.idle.indexOf(client);
    if (index >= 0) this.idle.splice(index, 1);
    batch?.abandon(error);
    client.end().catch(() => undefined);
    this.schedule();
  }

  private armSweeper(): void {
    if (!this.closed) this.sweeper ??= setTimeout(this.sweep, Math.max(10, this.options.waitMs / 4)).unref();
  }

  private readonly sweep = (): void => {
    this.sweeper = undefined;
    const oldest = Date.now() - this.options.waitMs;
    if (this.pending.some((waiting) => waiting.since <= oldest)) {
      const late = this.pending.filter((waiting) => waiting.since <= oldest);
      this.pending = this.pending.filter((waiting) => waiting.since > oldest);
      for (const { query } of late) query.fail(new Error(WAIT_TIMEOUT));
    }
    if (this.pending.length > 0) this.armSweeper();
  };
}
