// Applies the SQL migrations in Prisma's layout (prisma/<subgraph>/migrations/<name>/migration.sql)
// and records them in <subgraph>._prisma_migrations exactly as `prisma migrate deploy` does, so
// either tool can take over from the other on the same database.
import { createHash, randomUUID } from "node:crypto";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { SUBGRAPHS, type SubgraphName } from "../graphql/subgraph-registry.ts";
import type { Database, Queryable } from "./queryable.ts";

/**
 * Every migration set under prisma/ (a set is a folder, named like the PostgreSQL schema it
 * owns): the subgraphs' (the registry's Prisma folders) plus shared infrastructure with its own
 * schema (`ratelimit`, the shared rate limiter's counters, lib/rate-limit; `internal`, the internal
 * listeners' used principals, lib/auth/replay-store.ts). `npm run migrate`,
 * `npm run migration:new` and the drift check cover all of them.
 */
export const migrationSets: readonly string[] = [...SUBGRAPHS.map((s) => s.prismaFolder), "ratelimit", "internal"];

/** The migration sets one subgraph's service applies at start. */
export function subgraphMigrationSets(names: readonly SubgraphName[]): string[] {
  return SUBGRAPHS.filter((s) => names.includes(s.name)).map((s) => s.prismaFolder);
}

export const defaultMigrationsRoot = join(import.meta.dirname, "..", "..", "prisma");

// The key `prisma migrate deploy` locks too, so it and we never migrate at the same time.
const ADVISORY_LOCK_KEY = 72707369;

export interface Migration {
  name: string;
  sql: string;
}

export interface AppliedMigration {
  subgraph: string;
  name: string;
}

export class MigrationError extends Error {
  override name = "MigrationError";
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** The checksum Prisma stores: sha256 of the file, hex. */
export function migrationChecksum(sql: string): string {
  return createHash("sha256").update(sql).digest("hex");
}

// Like Prisma, accept a file whose only change is its line endings (a Windows checkout).
function matchesChecksum(sql: string, checksum: string): boolean {
  const lf = sql.replace(/\r\n/g, "\n");
  return [sql, lf, lf.replace(/\n/g, "\r\n")].some((variant) => migrationChecksum(variant) === checksum);
}

/** The migrations of one subgraph, in the order Prisma applies them (directory name). */
export async function readMigrations(migrationsDir: string): Promise<Migration[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b));
  return Promise.all(names.map(async (name) => ({ name, sql: await readFile(join(migrationsDir, name, "migration.sql"), "utf8") })));
}

/**
 * Applies every subgraph's pending migrations, each in its own transaction, and returns those
 * it applied. Throws MigrationError when an applied migration's file changed or one failed.
 */
export async function applyMigrations(
  db: Database,
  subgraphs: readonly string[],
  options: { migrationsRoot?: string } = {},
): Promise<AppliedMigration[]> {
  const root = options.migrationsRoot ?? defaultMigrationsRoot;
  const applied: AppliedMigration[] = [];
  for (const subgraph of subgraphs) {
    const migrations = await readMigrations(join(root, subgraph, "migrations"));
    // One migration per transaction, re-reading the table under the lock each time: another
    // process may have applied some while we waited (as long as it took: no deadline here).
    for (;;) {
      const name = await db.transaction((tx) => applyNext(tx, subgraph, migrations), { unbounded: true });
      if (!name) break;
      applied.push({ subgraph, name });
    }
  }
  return applied;
}

async function applyNext(tx: Queryable, subgraph: string, migrations: Migration[]): Promise<string | undefined> {
  await tx.query("SELECT pg_advisory_xact_lock($1)", [ADVISORY_LOCK_KEY]);
  const table = await ensureMigrationsTable(tx, subgraph);
  const rows = await tx.query<MigrationRow>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM ${table}`);
  const live = rows.filter((row) => row.rolled_back_at === null);

  const failed = live.find((row) => row.finished_at === null);
  if (failed) {
    throw new MigrationError(
      `migration ${subgraph}/${failed.migration_name} failed earlier and is not marked rolled back; fix the database, then mark it rolled back in ${table}`,
    );
  }
  const done = new Map(live.map((row) => [row.migration_name, row.checksum]));
  for (const migration of migrations) {
    const checksum = done.get(migration.name);
    if (checksum !== undefined && !matchesChecksum(migration.sql, checksum)) {
      throw new MigrationError(
        `migration ${subgraph}/${migration.name} was edited after it was applied (checksum mismatch); restore the file and put the change in a new migration`,
      );
    }
  }

  const next = migrations.find((migration) => !done.has(migration.name));
  if (!next) return undefined;
  try {
    await tx.exec(next.sql);
  } catch (error) {
    throw new MigrationError(`migration ${subgraph}/${next.name} failed: ${(error as Error).message}`, { cause: error });
  }
  await tx.exec(recordMigrationSql(table, next));
  return next.name;
}

/** The row `prisma migrate deploy` writes for a migration it applied. */
function recordMigrationSql(table: string, migration: Migration): string {
  const values = [randomUUID(), migrationChecksum(migration.sql), migration.name].map(quoteLiteral).join(", ");
  return `INSERT INTO ${table} (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES (${values}, now(), clock_timestamp(), 1)`;
}

/** Creates the subgraph's schema and its migrations table (Prisma's definition) if missing. */
async function ensureMigrationsTable(tx: Queryable, subgraph: string): Promise<string> {
  const { table, sql } = migrationsTableSql(subgraph);
  await tx.exec(sql);
  return table;
}

function migrationsTableSql(subgraph: string): { table: string; sql: string } {
  const schema = quoteIdentifier(subgraph);
  const table = `${schema}."_prisma_migrations"`;
  const sql = `
    CREATE SCHEMA IF NOT EXISTS ${schema};
    CREATE TABLE IF NOT EXISTS ${table} (
      id                  VARCHAR(36) PRIMARY KEY NOT NULL,
      checksum            VARCHAR(64) NOT NULL,
      finished_at         TIMESTAMPTZ,
      migration_name      VARCHAR(255) NOT NULL,
      logs                TEXT,
      rolled_back_at      TIMESTAMPTZ,
      started_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
      applied_steps_count INTEGER NOT NULL DEFAULT 0
    );
  `;
  return { table, sql };
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export interface MigrationScripts {
  /** changes whenever a migration of the sets is added, renamed or edited */
  fingerprint: string;
  /** every migration of the sets with its bookkeeping, in the order applyMigrations runs them, for a database nothing else uses yet */
  scripts: string[];
}

/**
 * What applyMigrations would run on a new database, as plain scripts: the embedded database's
 * template is migrated with them in a worker thread that cannot load this module (pglite-template.ts).
 */
export async function migrationScripts(sets: readonly string[], options: { migrationsRoot?: string } = {}): Promise<MigrationScripts> {
  const root = options.migrationsRoot ?? defaultMigrationsRoot;
  const hash = createHash("sha256");
  const scripts: string[] = [];
  for (const set of sets) {
    const { table, sql } = migrationsTableSql(set);
    hash.update(`${set}\n`);
    scripts.push(sql);
    for (const migration of await readMigrations(join(root, set, "migrations"))) {
      hash.update(`${set}/${migration.name}:${migrationChecksum(migration.sql)}\n`);
      scripts.push(migration.sql, recordMigrationSql(table, migration));
    }
  }
  return { fingerprint: hash.digest("hex").slice(0, 16), scripts };
}
