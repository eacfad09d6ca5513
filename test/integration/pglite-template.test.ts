import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../lib/db/database.ts";
import { applyMigrations, defaultMigrationsRoot, migrationChecksum, migrationScripts, migrationSets, readMigrations } from "../../lib/db/migrations.ts";
import { pgliteTemplate } from "../../lib/db/pglite-template.ts";

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describe("the embedded database's initdb template (lib/db/pglite-template.ts)", () => {
  it("is a tarball of an initialised data folder, the same bytes on every call", async () => {
    const first = await pgliteTemplate();
    const again = await pgliteTemplate();
    expect(first.size).toBeGreaterThan(1_000_000);
    expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(await first.arrayBuffer()))).toBe(true);
  });

  it("starts new databases, in memory and in a folder, with the embedded settings", async () => {
    const folder = await mkdtemp(join(tmpdir(), "pglite-template-"));
    folders.push(folder);
    for (const dataDir of ["memory://", folder]) {
      const database = await openDatabase({ dataDir });
      try {
        expect(await database.query("SELECT current_setting('shared_buffers') AS value")).toEqual([{ value: "16MB" }]);
        expect(await database.query("SELECT datname FROM pg_database WHERE datname = 'template1'")).toEqual([{ datname: "template1" }]);
      } finally {
        await database.close();
      }
    }
    expect((await stat(join(folder, "pglite", "PG_VERSION"))).isFile()).toBe(true);
    // unpacked beside its place and renamed into it: nothing half-made is left
    expect((await readdir(folder)).filter((name) => name.startsWith("pglite"))).toEqual(["pglite"]);
  });

  it("replaces a database folder an interrupted start left without PG_VERSION, and its half-unpacked folder", async () => {
    const folder = await mkdtemp(join(tmpdir(), "pglite-template-"));
    folders.push(folder);
    await mkdir(join(folder, "pglite", "base"), { recursive: true });
    await writeFile(join(folder, "pglite", "base", "stray"), "left by a start that died");
    await mkdir(join(folder, "pglite.partial-1-1", "base"), { recursive: true });
    const database = await openDatabase({ dataDir: folder });
    try {
      expect(await database.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
    }
    expect(await readdir(join(folder, "pglite", "base"))).not.toContain("stray");
    expect(await readdir(folder)).toEqual(["pglite"]);
  });

  it("opens an existing data folder as it is: what was written stays", async () => {
    const folder = await mkdtemp(join(tmpdir(), "pglite-template-"));
    folders.push(folder);
    const first = await openDatabase({ dataDir: folder });
    await first.exec("CREATE TABLE kept (value text); INSERT INTO kept VALUES ('still here')");
    await first.close();
    const reopened = await openDatabase({ dataDir: folder });
    try {
      expect(await reopened.query("SELECT value FROM kept")).toEqual([{ value: "still here" }]);
    } finally {
      await reopened.close();
    }
  });
});

describe("a new embedded database with its migrations from the template (issue 27)", () => {
  it("starts with every migration applied and recorded as the runner records it, in memory and in a folder", async () => {
    const folder = await mkdtemp(join(tmpdir(), "pglite-template-"));
    folders.push(folder);
    const sets = migrationSets.filter((set) => set !== "ratelimit" && set !== "internal");
    for (const dataDir of ["memory://", folder]) {
      const database = await openDatabase({ dataDir, premigrated: sets });
      try {
        // what a first start used to spend a second on: nothing is left to apply
        expect(await applyMigrations(database, sets)).toEqual([]);
        for (const set of sets) {
          const files = await readMigrations(join(defaultMigrationsRoot, set, "migrations"));
          const rows = await database.query(`SELECT migration_name AS name, checksum, finished_at IS NOT NULL AS finished, applied_steps_count FROM "${set}"._prisma_migrations ORDER BY migration_name`);
          expect(rows).toEqual(files.map((file) => ({ name: file.name, checksum: migrationChecksum(file.sql), finished: true, applied_steps_count: 1 })));
        }
      } finally {
        await database.close();
      }
    }
  });

  it("opens an existing folder as it is, whatever the template holds", async () => {
    const folder = await mkdtemp(join(tmpdir(), "pglite-template-"));
    folders.push(folder);
    const first = await openDatabase({ dataDir: folder });
    await first.close();
    const reopened = await openDatabase({ dataDir: folder, premigrated: ["users"] });
    try {
      expect(await reopened.query(`SELECT schema_name FROM information_schema.schemata WHERE schema_name = 'users'`)).toEqual([]);
      expect((await applyMigrations(reopened, ["users"])).length).toBeGreaterThan(0);
    } finally {
      await reopened.close();
    }
  });

  it("falls back to the initdb template when a migration fails, so the runner names it", async () => {
    const root = await mkdtemp(join(tmpdir(), "pglite-template-migrations-"));
    folders.push(root);
    await mkdir(join(root, "broken", "migrations", "20260101000000_broken"), { recursive: true });
    await writeFile(join(root, "broken", "migrations", "20260101000000_broken", "migration.sql"), "SELECT * FROM missing_table;\n");
    const template = await pgliteTemplate(await migrationScripts(["broken"], { migrationsRoot: root }));
    expect(Buffer.from(await template.arrayBuffer()).equals(Buffer.from(await (await pgliteTemplate()).arrayBuffer()))).toBe(true);
  });
});
