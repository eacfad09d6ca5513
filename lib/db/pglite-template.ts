// A new PGlite database starts from a template instead of running initdb and the migrations in
// this process: initdb takes about 2 s and the migrations about 1 s more, and PGlite keeps the
// ~350 MB of WebAssembly memory it used for the life of the process (close() does not give it
// back). What they write depends only on the PGlite version and the migration files, so they run
// once, in a worker thread whose memory goes when it exits, and the data folder is kept as a
// tarball in node_modules/.cache, named for both. A new database in memory is loaded from it
// (loadDataDir); a new database folder is unpacked from it before PGlite opens it (unpackTemplate).
import { readFileSync } from "node:fs";
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { createGunzip } from "node:zlib";
import type { MigrationScripts } from "./migrations.ts";
import { untar } from "./untar.ts";

/**
 * PostgreSQL settings for the embedded database. PGlite's WebAssembly memory only grows, and its
 * defaults (128 MB of shared buffers, 64 MB of maintenance memory) size it for a server; the
 * embedded database is one user's data, cached by the operating system's page cache below it.
 */
export const PGLITE_SETTINGS = ["shared_buffers=16MB", "maintenance_work_mem=16MB"];

const PGLITE_ENTRY = import.meta.resolve("@electric-sql/pglite");

function cacheFolder(): { folder: string; version: string } {
  // the package exports no package.json: its folder is found from its entry point
  const packageDir = /^(.*\/node_modules\/@electric-sql\/pglite)\//.exec(fileURLToPath(PGLITE_ENTRY))![1]!;
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string };
  // beside the installed packages, like other tools' caches; made again when PGlite changes
  return { folder: join(packageDir, "..", "..", ".cache", "platform"), version };
}

/** Migrated templates kept per PGlite version: a checkout's current sets and a few earlier ones. */
const KEPT_MIGRATED_TEMPLATES = 4;

// runs in the worker: initdb in memory, then the data folder as a gzipped tarball
const INITDB = `
const { parentPort, workerData } = require("node:worker_threads");
import(workerData.pglite).then(async ({ PGlite }) => {
  const db = await PGlite.create("memory://");
  for (const script of workerData.scripts) await db.exec(script);
  const dump = await db.dumpDataDir("gzip");
  await db.close();
  parentPort.postMessage(new Uint8Array(await dump.arrayBuffer()));
});
`;

function initdbInWorker(scripts: readonly string[]): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(INITDB, { eval: true, workerData: { pglite: PGLITE_ENTRY, scripts } });
    worker.once("message", (tarball: Uint8Array) => {
      resolve(tarball);
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the PGlite initdb worker exited with ${code}`)));
  });
}

const templates = new Map<string, Promise<Blob>>();

/**
 * The template: initdb, then `migrations` when given. From the cache, else made (and cached when
 * the cache folder is writable). Should a migration fail, the initdb template stands in, and the
 * migration runner, applying them itself, names the one that fails.
 */
export function pgliteTemplate(migrations?: MigrationScripts): Promise<Blob> {
  const name = migrations?.fingerprint ?? "initdb";
  let template = templates.get(name);
  if (!template) {
    template = (async () => {
      const { folder, version } = cacheFolder();
      const file = join(folder, `pglite-${version}-${name}.tgz`);
      const cached = await readFile(file).catch(() => undefined);
      if (cached) return new Blob([cached]);
      const tarball = await initdbInWorker(migrations?.scripts ?? []);
      // several processes may make it at once: each writes its own file and renames it into place
      const partial = `${file}.${process.pid}.${Date.now()}`;
      await mkdir(folder, { recursive: true })
        .then(() => writeFile(partial, tarball))
        .then(() => rename(partial, file))
        .then(() => migrations && pruneMigratedTemplates(folder, version))
        .catch(() => undefined);
      return new Blob([tarball]);
    })();
    templates.set(name, template);
    template.catch(() => templates.delete(name));
  }
  return migrations ? template.catch(() => pgliteTemplate()) : template;
}

/** Each change to a migration makes a new template: the oldest go, and every other PGlite version's. */
async function pruneMigratedTemplates(folder: string, version: string): Promise<void> {
  const files = (await readdir(folder)).filter((file) => /^pglite-.*\.tgz$/.test(file));
  const stale = files.filter((file) => !file.startsWith(`pglite-${version}-`));
  const migrated = files.filter((file) => file.startsWith(`pglite-${version}-`) && file !== `pglite-${version}-initdb.tgz`);
  const byAge = await Promise.all(migrated.map(async (file) => ({ file, mtime: (await stat(join(folder, file))).mtimeMs })));
  byAge.sort((a, b) => b.mtime - a.mtime);
  stale.push(...byAge.slice(KEPT_MIGRATED_TEMPLATES).map(({ file }) => file));
  await Promise.all(stale.map((file) => rm(join(folder, file), { force: true })));
}

/**
 * Makes `location` a new database folder from the template. Streamed to disk: PGlite's own
 * loadDataDir holds the 40 MB of files in memory at once, and the process's allocator keeps the
 * pages long after (some 60 MB of steady RSS). Unpacked beside `location` and renamed into place,
 * so an interrupted start leaves no half database.
 */
export async function unpackTemplate(location: string, migrations?: MigrationScripts): Promise<void> {
  const tarball = Buffer.from(await (await pgliteTemplate(migrations)).arrayBuffer());
  const prefix = `${basename(location)}.partial-`;
  // a start killed while it unpacked left its folder here
  for (const stale of (await readdir(dirname(location))).filter((name) => name.startsWith(prefix))) await rm(join(dirname(location), stale), { recursive: true, force: true });
  const partial = `${location}.partial-${process.pid}-${Date.now()}`;
  try {
    await untar(Readable.from([tarball]).pipe(createGunzip({ chunkSize: 1 << 18 })), partial);
    // without PG_VERSION (the caller's check) it holds no database: at most an older start's leftovers
    await rm(location, { recursive: true, force: true });
    await rename(partial, location);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}
