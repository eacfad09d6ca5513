// One database per process: embedded PGlite by default, PostgreSQL when DATABASE_URL is set.
// Every subgraph's PrismaClient and the migration runner share the same PGlite instance or pg.Pool.
// Each kind's driver loads only when it is the one configured (start-up time and memory).
import { registerPool } from "../metrics.ts";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";
import type { Pool, PoolClient } from "pg";
import { migrationScripts } from "./migrations.ts";
import { PGLITE_SETTINGS, pgliteTemplate, unpackTemplate } from "./pglite-template.ts";

export interface Queryable {
  /** raw parameterised query ($1, $2...) returning rows */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** run several statements (a migration script) */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** a Prisma driver adapter factory to pass as `new PrismaClient({ adapter })`; all subgraph clients in one process share the same underlying PGlite instance or pg.Pool */
  adapter(): SqlDriverAdapterFactory;
  /** run `fn` on one connection inside BEGIN/COMMIT; rolled back when it throws */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

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
}

const POOL_MAX = 10;
// Short, so /health answers 503 quickly while the server is unreachable.
const CONNECT_TIMEOUT_MS = 5_000;

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPGlite(options.dataDir, options.premigrated ?? []);
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
    // PGlite is one connection: its transaction() holds every other query until it ends.
    transaction: (fn) => client.transaction((tx) => fn(onClient(tx))),
    close: () => client.close(),
  };
}

async function openPostgres(connectionString: string): Promise<Database> {
  const [{ default: pg }, { PrismaPg }] = await Promise.all([import("pg"), import("@prisma/adapter-pg")]);
  const pool = new pg.Pool({ connectionString, max: POOL_MAX, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle client dropped by the server emits 'error' on the pool; without a listener that
  // crashes the process. The pool discards the client and the next query reports the outage.
  pool.on("error", () => {});
  const unregister = registerPool(pool);
  const adapter = new PrismaPg(pool);
  const onClient = (c: Pool | PoolClient): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      return (await c.query(sql, params)).rows as T[];
    },
    async exec(sql: string) {
      // Without parameters pg uses the simple protocol, which accepts several statements.
      await c.query(sql);
    },
  });
  return {
    kind: "postgres",
    ...onClient(pool),
    adapter: () => adapter,
    async transaction(fn) {
      const conn = await pool.connect();
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
        // Passing the error makes the pool destroy the connection instead of reusing it.
        conn.release(broken);
      }
    },
    async close() {
      unregister();
      await pool.end();
    },
  };
}
