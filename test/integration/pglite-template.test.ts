import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../lib/db/database.ts";
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
