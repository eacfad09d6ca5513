// One database per process: embedded PGlite by default, PostgreSQL when DATABASE_URL is set.
// Every subgraph's PrismaClient and the migration runner share the same PGlite instance or pg.Pool.
// Each kind's driver loads only when it is the one configured (start-up time and memory).
import { registerPool, type PoolStats } from "../metrics.ts";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { Client, Pool, PoolClient } from "pg";
import { DEFAULT_DATABASE_TIMEOUTS, STATEMENT_GRACE_MS, type DatabaseTimeouts } from "./database-timeouts.ts";
import { migrationScripts } from "./migrations.ts";
import { checkChannel, PostgresListener } from "./notifications.ts";
import { PGLITE_SETTINGS, pgliteTemplate, unpackTemplate } from "./pglite-template.ts";
import { PreparedQuery, type TypedRows } from "./prepared-query.ts";
import { statementName } from "./prepared-statements.ts";
import { StatementPipeline } from "./statement-pipeline.ts";
import type { Database, Queryable } from "./queryable.ts";

export type { Database, Queryable } from "./queryable.ts";

export interface DatabaseOptions {
  /** PostgreSQL URL; unset means embedded PGlite */
  databaseUrl?: string;
  /** PGlite data folder, or `memory://` for a throwaway database */
  dataDir: string;
  /**
   * Migration sets a new embedded database starts with already applied, from a template made once
   * (pglite-template.ts); the caller still runs applyMigrations, which then has nothing to do
   */
  premigrated?: readonly string[];
  /** PostgreSQL's deadlines (DATABASE_*_TIMEOUT_MS); the defaults when unset */
  timeouts?: DatabaseTimeouts;
}

const POOL_MAX = 10;
/**
 * Connections of the statement pipeline (statement-pipeline.ts), beside the pool's. Two: one
 * process's hot reads need less than one PostgreSQL core, and a second connection keeps them
 * flowing behind a slow batch. (Fan-out on the bench, 32 clients: 1, 2 and 4 within noise.)
 */
const PIPELINE_CONNECTIONS = 2;
/**
 * A session idle inside a transaction this long is a stalled process (frozen, cut off): the server
 * ends it and frees its locks. Twice our longest transaction (TRANSACTION_OPTIONS, 30 s), which may
 * wait on a provider between statements.
 */
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;
/** TCP keepalive probes on connections idle this long, so a server that vanished (host down, network cut) is noticed. */
const KEEPALIVE_DELAY_MS = 10_000;
/** What pg fails a query with when query_timeout passes without an answer. */
export const QUERY_READ_TIMEOUT = "Query read timeout";

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS) : openPGlite(options.dataDir, options.premigrated ?? []);
}

async function openPGlite(dataDir: string, premigrated: readonly string[]): Promise<Database> {
  // the cluster gets its own folder: DATA_DIR also holds the generated signing key
  const inMemory = dataDir.startsWith("memory://");
  const location = inMemory ? dataDir : join(dataDir, "pglite");
  const isNew = inMemory || !existsSync(join(location, "PG_VERSION"));
  const migrations = isNew && premigrated.length > 0 ? await migrationScripts(premigrated) : undefined;
  if (isNew && !inMemory) {
    await mkdir(dataDir, { recursive: true });
    await unpackTemplate(location, migrations);
  }
  const [{ PGlite }, { PrismaPGlite }] = await Promise.all([import("@electric-sql/pglite"), import("pglite-prisma-adapter")]);
  const client = await PGlite.create(location, { postgresqlconf: PGLITE_SETTINGS, ...(inMemory && { loadDataDir: await pgliteTemplate(migrations) }) });
  const adapter = new PrismaPGlite(client);
  const unregister = registerPool(pgliteConnection(client));
  const onClient = (c: Pick<PGlite, "query" | "exec">): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      return (await c.query<T>(sql, params)).rows;
    },
    async exec(sql: string) {
      await c.exec(sql);
    },
  });
  return {
    kind: "pglite",
    ...onClient(client),
    adapter: () => adapter,
    async queryTyped<T>(sql: string, params: unknown[]) {
      const result = await client.query<T>(sql, params);
      return { rows: result.rows, types: result.fields.map((field) => field.dataTypeID) };
    },
    // one process owns the database: its own NOTIFYs reach it, after their transaction commits
    listen(channel, handler) {
      checkChannel(channel);
      let stopped = false;
      const unlisten = client.listen(channel, (payload) => handler(payload));
      return () => {
        if (stopped) return;
        stopped = true;
        void unlisten.then((stop) => stop()).catch(() => undefined);
      };
    },
    // PGlite is one connection: its transaction() holds every other query until it ends.
    transaction: (fn) => client.transaction((tx) => fn(onClient(tx))),
    async close() {
      unregister();
      await client.close();
    },
  };
}

/**
 * PGlite's one connection as the pool gauge counts it: total 1 while open, idle while no query or
 * transaction holds it, and waiting the calls queued behind the one that does. Every top-level
 * query, exec and transaction (Prisma's adapter's too) runs under PGlite's transaction lock,
 * `_runExclusiveTransaction`, which this counts around.
 */
function pgliteConnection(client: PGlite): PoolStats {
  let inUse = 0;
  let waiting = 0;
  const runExclusive = client._runExclusiveTransaction.bind(client);
  client._runExclusiveTransaction = <T>(fn: () => Promise<T>) => {
    waiting++;
    return runExclusive(async () => {
      waiting--;
      inUse++;
      try {
        return await fn();
      } finally {
        inUse--;
      }
    });
  };
  return {
    get totalCount() {
      return client.closed ? 0 : 1;
    },
    get idleCount() {
      return client.closed || inUse > 0 ? 0 : 1;
    },
    get waitingCount() {
      return waiting;
    },
  };
}

async function openPostgres(connectionString: string, timeouts: DatabaseTimeouts): Promise<Database> {
  const [{ default: pg }, { PrismaPg }] = await Promise.all([import("pg"), import("@prisma/adapter-pg")]);
  /**
   * pg fails a query unanswered past query_timeout but leaves it on the connection, where the next
   * query would wait behind it; and adapter-pg hands a transaction's connection back to the pool
   * without an error. Such a connection is closed at once instead: the pool drops it, and what was
   * queued behind fails now rather than after its own timeout. (pool.query, the callback form,
   * releases with the error itself.)
   */
  class DeadlineClient extends pg.Client {
    override query(...args: unknown[]): any {
      const result = (pg.Client.prototype.query as (...a: unknown[]) => unknown).apply(this, args);
      if (!(result instanceof Promise)) return result;
      return result.catch((error: unknown) => {
        if (error instanceof Error && error.message === QUERY_READ_TIMEOUT) this.end().catch(() => undefined);
        throw error;
      });
    }
  }
  const connection = { connectionString, connectionTimeoutMillis: timeouts.connectMs, keepAlive: true, keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS };
  const deadlines = {
    // the server's own deadlines, sent with the connection's start-up
    statement_timeout: timeouts.statementMs,
    lock_timeout: timeouts.lockMs,
    idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
    // and the process's, for a server that enforces nothing (frozen)
    query_timeout: timeouts.statementMs + STATEMENT_GRACE_MS,
  };
  const pool = new pg.Pool({ ...connection, ...deadlines, max: POOL_MAX, Client: DeadlineClient });
  const pipeline = new StatementPipeline({
    newClient: () => new pg.Client({ ...connection, ...deadlines }),
    connections: PIPELINE_CONNECTIONS,
    waitMs: timeouts.connectMs,
    isServerError: (error) => error instanceof pg.DatabaseError,
    readTimeoutMessage: QUERY_READ_TIMEOUT,
  });
  // An idle client dropped by the server emits 'error' on the pool; without a listener that
  // crashes the process. The pool discards the client and the next query reports the outage.
  pool.on("error", () => {});
  const unregisterPool = registerPool(pool);
  const unregisterPipeline = registerPool(pipeline);
  // LISTEN holds its connection for good: one outside the pool, without the statement deadlines
  let listener: PostgresListener | undefined;
  // pg runs a statement without a name as unnamed (parsed and planned each time); the generator's
  // undefined for all but the marked statements keeps that
  const adapter = new PrismaPg(pool, { statementNameGenerator: statementName as (query: { sql: string }) => string });
  const onClient = (c: Pool | PoolClient | Client): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      return (await c.query(sql, params)).rows as T[];
    },
    async exec(sql: string) {
      // Without parameters pg uses the simple protocol, which accepts several statements.
      await c.query(sql);
    },
  });
  /** BEGIN, `fn`, COMMIT on `conn`, rolled back when `fn` throws; `done` gets the connection's own error when it broke. */
  const inTransaction = async <T>(conn: PoolClient | Client, fn: (tx: Queryable) => Promise<T>, done: (broken?: Error) => unknown): Promise<T> => {
    // A checked-out client has no pool listener: a dropped connection would crash the
    // process. The failing query reports the error to us anyway.
    let broken: Error | undefined;
    const onError = (error: Error) => (broken = error);
    conn.on("error", onError);
    try {
      await conn.query("BEGIN");
      const result = await fn(onClient(conn));
      await conn.query("COMMIT");
      return result;
    } catch (error) {
      if (!broken) await conn.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      conn.removeListener("error", onError);
      await done(broken);
    }
  };
  return {
    kind: "postgres",
    ...onClient(pool),
    adapter: () => adapter,
    async queryTyped<T>(sql: string, params: unknown[]) {
      const name = statementName({ sql });
      if (name === undefined) {
        const result = await pool.query(sql, params);
        return { rows: result.rows as T[], types: result.fields.map((field) => field.dataTypeID) };
      }
      // described once per connection, not on every execution, and pipelined (statement-pipeline.ts)
      return pipeline.run(new PreparedQuery<T>(name, sql, params, pg as unknown as ConstructorParameters<typeof PreparedQuery>[3])).catch((error: Error) => {
        // the caller's stack, not the socket's (as pg's promise does)
        Error.captureStackTrace(error);
        throw error;
      });
    },
    listen(channel, handler) {
      listener ??= new PostgresListener(() => new pg.Client(connection));
      return listener.listen(channel, handler);
    },
    async transaction(fn, options = {}) {
      if (options.unbounded) {
        const conn = new pg.Client(connection);
        await conn.connect();
        return inTransaction(conn, fn, () => conn.end());
      }
      const conn = await pool.connect();
      // Passing the error makes the pool destroy the connection instead of reusing it.
      return inTransaction(conn, fn, (broken) => conn.release(broken));
    },
    async close() {
      unregisterPool();
      unregisterPipeline();
      await listener?.close();
      await Promise.all([pipeline.close(), pool.end()]);
    },
  };
}
