// Prisma's schema engine as WebAssembly, so migrations can be diffed without the native engine
// binary (which `prisma migrate` would download). Shadow databases are always throwaway
// in-memory PGlite: @prisma/adapter-pg's shadow work ran against the main database.
import { readFile, readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";
import type { DiagnoseMigrationHistoryOutput, MigrationList, SchemaContainer, SchemaEngine } from "@prisma/schema-engine-wasm";
import * as bg from "@prisma/schema-engine-wasm/schema_engine_bg";
import { PrismaPGlite } from "pglite-prisma-adapter";

export const prismaRoot = join(import.meta.dirname, "..", "prisma");

// The global exists in Node, but our TypeScript libs (ES2023 + node) do not declare it.
const wasmApi = (globalThis as unknown as { WebAssembly: { instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: unknown } }> } })
  .WebAssembly;

let loaded: Promise<void> | undefined;

/** Node cannot import .wasm modules: instantiate it by hand and hand it to the JS glue, once. */
function loadWasm(): Promise<void> {
  loaded ??= (async () => {
    const gluePath = createRequire(import.meta.url).resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const bytes = await readFile(gluePath.replace(/\.js$/, ".wasm"));
    const { instance } = await wasmApi.instantiate(bytes, { "./schema_engine_bg.js": bg });
    const exports = instance.exports as Parameters<typeof bg.__wbg_set_wasm>[0] & { __wbindgen_start(): void };
    bg.__wbg_set_wasm(exports);
    exports.__wbindgen_start();
  })();
  return loaded;
}

/** Reads a migrations folder the way the Prisma CLI does (directories sorted by name). */
export async function readMigrationList(migrationsDir: string): Promise<MigrationList> {
  const lockfile = { path: "migration_lock.toml", content: await readFile(join(migrationsDir, "migration_lock.toml"), "utf8").catch(() => null) };
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch(() => []);
  const migrationDirectories = await Promise.all(
    entries
      .filter((entry) => entry.isDirectory())
      .map(async (entry) => ({
        path: entry.name,
        migrationFile: {
          path: "migration.sql",
          content: await readFile(join(migrationsDir, entry.name, "migration.sql"), "utf8").then(
            (value) => ({ tag: "ok" as const, value }),
            (error: Error) => ({ tag: "error" as const, value: error.message }),
          ),
        },
      })),
  );
  migrationDirectories.sort((a, b) => a.path.localeCompare(b.path));
  return { baseDir: migrationsDir, lockfile, shadowDbInitScript: "", migrationDirectories };
}

/**
 * Runs `fn` with an engine loaded with a subgraph's schema and migrations. Its shadow databases
 * (and its main one, unless `main` is given) are in-memory PGlite, closed afterwards.
 */
async function withEngine<T>(
  subgraph: string,
  root: string,
  fn: (engine: SchemaEngine, schema: SchemaContainer, migrations: MigrationList) => Promise<T>,
  main?: SqlDriverAdapterFactory,
): Promise<T> {
  const path = join(root, subgraph, "schema.prisma");
  const schema = { path, content: await readFile(path, "utf8") };
  const migrations = await readMigrationList(join(root, subgraph, "migrations"));
  await loadWasm();
  const databases: PGlite[] = [];
  // The engine reports a failing script only as "external connector error": keep the cause.
  let scriptError: Error | undefined;
  const connectToMemoryDatabase = async () => {
    const db = await PGlite.create("memory://");
    databases.push(db);
    const adapter = await new PrismaPGlite(db).connect();
    // PrismaPGlite's executeScript does not wait for the script: a failing migration would
    // count as applied (an empty diff) and its error would crash the process later.
    adapter.executeScript = async (script) => {
      await db.exec(script).catch((error: Error) => {
        scriptError = error;
        throw error;
      });
    };
    return adapter;
  };
  // Our own factory rather than PrismaPGlite's, whose shadow database is never closed.
  const factory = {
    provider: "postgres" as const,
    adapterName: "pglite",
    connect: main ? () => main.connect() : connectToMemoryDatabase,
    connectToShadowDb: connectToMemoryDatabase,
  };
  const engine = await bg.SchemaEngine.new({ datamodels: [[schema.path, schema.content]] }, () => {}, bindMigrationAwareSqlAdapterFactory(factory));
  try {
    return await fn(engine, schema, migrations);
  } catch (error) {
    const message = (error as Error).message.split("\n")[0].trim();
    throw scriptError ? new Error(`${message} ${scriptError.message}`, { cause: scriptError }) : error;
  } finally {
    engine.free();
    await Promise.all(databases.map((db) => db.close()));
  }
}

const noFilters = { externalTables: [], externalEnums: [] };

/**
 * The SQL that takes a database built from `prisma/<subgraph>/migrations` to
 * `prisma/<subgraph>/schema.prisma`; "-- This is an empty migration." when they agree.
 */
export async function diffMigrationsToSchema(subgraph: string, root = prismaRoot): Promise<string> {
  return withEngine(subgraph, root, async (engine, schema, migrations) => {
    const result = await engine.diff({
      // With no migrations yet the engine cannot read the provider from migration_lock.toml.
      from: migrations.migrationDirectories.length ? { tag: "migrations", ...migrations } : { tag: "empty" },
      to: { tag: "schemaDatamodel", files: [schema] },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    return result.stdout ?? "";
  });
}

/**
 * What Prisma's own engine makes of a subgraph's migration history in the database behind
 * `main`: proof that our runner's `_prisma_migrations` rows are those `prisma migrate deploy`
 * writes. The engine finds the table through the connection's search_path.
 */
export async function diagnoseMigrationHistory(
  subgraph: string,
  main: SqlDriverAdapterFactory,
  root = prismaRoot,
): Promise<DiagnoseMigrationHistoryOutput> {
  return withEngine(
    subgraph,
    root,
    (engine, _schema, migrationsList) => engine.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: noFilters }),
    main,
  );
}

export function isEmptyMigration(sql: string): boolean {
  return sql.trim() === "-- This is an empty migration.";
}
