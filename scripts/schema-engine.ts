// Prisma's schema engine as WebAssembly, so migrations can be diffed without the native engine
// binary (which `prisma migrate` would download). All work runs on throwaway in-memory PGlite
// databases: the engine never sees a real database.
import { readFile, readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { DriverAdapterError, bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm";
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

/** Runs `fn` with an engine bound to in-memory PGlite databases, closed afterwards. */
async function withEngine<T>(schemaPath: string, schema: string, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  await loadWasm();
  const databases: PGlite[] = [];
  const connectToMemoryDatabase = async () => {
    const db = await PGlite.create("memory://");
    databases.push(db);
    const adapter = await new PrismaPGlite(db).connect();
    // PrismaPGlite's executeScript does not wait for the script: a failing migration would
    // count as applied (an empty diff) and its error would crash the process later.
    adapter.executeScript = async (script) => {
      await db.exec(script).catch((error: Error & { code?: string; severity?: string; detail?: string; hint?: string }) => {
        // Wrapped, or the engine reports only "external connector error".
        throw new DriverAdapterError({
          kind: "postgres",
          code: error.code ?? "N/A",
          severity: error.severity ?? "N/A",
          message: error.message,
          detail: error.detail,
          column: undefined,
          hint: error.hint,
        });
      });
    };
    return adapter;
  };
  // Our own factory rather than PrismaPGlite's, whose shadow database is never closed.
  const factory = {
    provider: "postgres" as const,
    adapterName: "pglite",
    connect: connectToMemoryDatabase,
    connectToShadowDb: connectToMemoryDatabase,
  };
  const engine = await bg.SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, () => {}, bindMigrationAwareSqlAdapterFactory(factory));
  try {
    return await fn(engine);
  } finally {
    engine.free();
    await Promise.all(databases.map((db) => db.close()));
  }
}

/**
 * The SQL that takes a database built from `prisma/<subgraph>/migrations` to
 * `prisma/<subgraph>/schema.prisma`; "-- This is an empty migration." when they agree.
 */
export async function diffMigrationsToSchema(subgraph: string, root = prismaRoot): Promise<string> {
  const schemaPath = join(root, subgraph, "schema.prisma");
  const schema = await readFile(schemaPath, "utf8");
  const migrations = await readMigrationList(join(root, subgraph, "migrations"));
  return withEngine(schemaPath, schema, async (engine) => {
    const result = await engine.diff({
      // With no migrations yet the engine cannot read the provider from migration_lock.toml.
      from: migrations.migrationDirectories.length ? { tag: "migrations", ...migrations } : { tag: "empty" },
      to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.stdout ?? "";
  });
}

export function isEmptyMigration(sql: string): boolean {
  return sql.trim() === "-- This is an empty migration.";
}
