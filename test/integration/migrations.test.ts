import { createHash } from "node:crypto";
import { appendFile, cp, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../lib/db/database.ts";
import { applyMigrations, migrationSets } from "../../lib/db/migrations.ts";
import { diagnoseMigrationHistory, diffMigrationsToSchema, isEmptyMigration, prismaRoot } from "../../scripts/schema-engine.ts";

// The wasm engine starts an in-memory PostgreSQL per database it touches: seconds each.
const ENGINE_TIMEOUT = 120_000;

async function migrationFiles(root: string, subgraph: string): Promise<{ name: string; checksum: string }[]> {
  const dir = join(root, subgraph, "migrations");
  const names = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => ({ name, checksum: createHash("sha256").update(await readFile(join(dir, name, "migration.sql"))).digest("hex") })),
  );
}

async function tempCopyOfPrismaRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "migrations-test-"));
  await cp(prismaRoot, root, { recursive: true });
  return root;
}

describe("migrations agree with schema.prisma (drift check)", () => {
  it.each(migrationSets)(
    "%s",
    async (subgraph) => {
      const sql = await diffMigrationsToSchema(subgraph);
      expect(sql.trim(), `prisma/${subgraph}/schema.prisma changed without a migration: npm run migration:new -- ${subgraph} <name>`).toBe(
        "-- This is an empty migration.",
      );
    },
    ENGINE_TIMEOUT,
  );

  it(
    "notices a schema edited without a migration",
    async () => {
      const root = await tempCopyOfPrismaRoot();
      try {
        await appendFile(join(root, "agents", "schema.prisma"), '\nmodel Drift {\n  id String @id\n  @@schema("agents")\n}\n');
        const sql = await diffMigrationsToSchema("agents", root);
        expect(isEmptyMigration(sql)).toBe(false);
        expect(sql).toContain('CREATE TABLE "agents"."Drift"');
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    },
    ENGINE_TIMEOUT,
  );
});

describe("applyMigrations on PGlite", () => {
  let db: Database;
  beforeEach(async () => {
    db = await openDatabase({ dataDir: "memory://" });
  });
  afterEach(async () => {
    await db.close();
  });

  it(
    "applies every migration once and records it as prisma migrate deploy does",
    async () => {
      const expected = (await Promise.all(migrationSets.map(async (subgraph) => ({ subgraph, files: await migrationFiles(prismaRoot, subgraph) }))));

      const applied = await applyMigrations(db, migrationSets);
      expect(applied).toEqual(expected.flatMap(({ subgraph, files }) => files.map(({ name }) => ({ subgraph, name }))));
      expect(await applyMigrations(db, migrationSets)).toEqual([]);

      for (const { subgraph, files } of expected) {
        const rows = await db.query(
          `SELECT migration_name AS name, checksum, finished_at IS NOT NULL AS finished, applied_steps_count FROM "${subgraph}"._prisma_migrations ORDER BY migration_name`,
        );
        expect(rows).toEqual(files.map(({ name, checksum }) => ({ name, checksum, finished: true, applied_steps_count: 1 })));
        // Prisma's own engine reads the same table and finds nothing to apply, edited or failed.
        await db.exec(`SET search_path TO "${subgraph}"`);
        expect(await diagnoseMigrationHistory(subgraph, db.adapter())).toEqual({
          editedMigrationNames: [],
          failedMigrationNames: [],
          hasMigrationsTable: true,
          history: null,
        });
      }
    },
    ENGINE_TIMEOUT,
  );

  it("applies each migration once when two runs race", async () => {
    const [first, second] = await Promise.all([applyMigrations(db, migrationSets), applyMigrations(db, migrationSets)]);
    const all = [...first, ...second].map(({ subgraph, name }) => `${subgraph}/${name}`);
    expect(new Set(all).size).toBe(all.length);
    const [{ count }] = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM users._prisma_migrations`);
    expect(count).toBe((await migrationFiles(prismaRoot, "users")).length);
  });

  describe("with an applied migration", () => {
    let root: string;
    let migrationFile: string;
    beforeEach(async () => {
      root = await tempCopyOfPrismaRoot();
      const [first] = await migrationFiles(root, "users");
      migrationFile = join(root, "users", "migrations", first.name, "migration.sql");
      await applyMigrations(db, ["users"], { migrationsRoot: root });
    });
    afterEach(async () => {
      await rm(root, { recursive: true, force: true });
    });

    it("refuses to start when its file was edited", async () => {
      await appendFile(migrationFile, "\n-- edited after the fact\n");
      await expect(applyMigrations(db, ["users"], { migrationsRoot: root })).rejects.toThrow(/users\/\d{14}_\w+ was edited after it was applied/);
    });

    it("accepts the same file with Windows line endings, as Prisma does", async () => {
      await writeFile(migrationFile, (await readFile(migrationFile, "utf8")).replace(/\n/g, "\r\n"));
      expect(await applyMigrations(db, ["users"], { migrationsRoot: root })).toEqual([]);
    });

    it("refuses to continue after a migration failed half-way", async () => {
      await db.query(`UPDATE users._prisma_migrations SET finished_at = NULL`);
      await expect(applyMigrations(db, ["users"], { migrationsRoot: root })).rejects.toThrow(/failed earlier/);
    });
  });

  it("rolls back a failing migration and names it", async () => {
    const root = await tempCopyOfPrismaRoot();
    try {
      const broken = join(root, "agents", "migrations", "99990101000000_broken");
      await cp(join(root, "agents", "migrations", (await migrationFiles(root, "agents"))[0].name), broken, { recursive: true });
      await writeFile(join(broken, "migration.sql"), 'CREATE TABLE "agents"."half" (id int);\nSELECT * FROM "agents"."missing";\n');
      await expect(applyMigrations(db, ["agents"], { migrationsRoot: root })).rejects.toThrow(/agents\/99990101000000_broken failed/);
      const tables = await db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'agents' AND table_name = 'half'`);
      expect(tables).toEqual([]);
      const rows = await db.query<{ migration_name: string }>(`SELECT migration_name FROM agents._prisma_migrations`);
      expect(rows.map((row) => row.migration_name)).not.toContain("99990101000000_broken");
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
