// A new PGlite database starts from a template instead of running initdb in this process: initdb
// takes about 2 s, and PGlite keeps the ~350 MB of WebAssembly memory it used for the life of the
// process (close() does not give it back). What initdb writes depends only on the PGlite version,
// so it runs once, in a worker thread whose memory goes when it exits, and its data folder is
// kept as a tarball in node_modules/.cache. A new database in memory is loaded from it
// (loadDataDir); a new database folder is unpacked from it before PGlite opens it (unpackTemplate).
import { readFileSync } from "node:fs";
import { mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { createGunzip } from "node:zlib";
import { untar } from "./untar.ts";

/**
 * PostgreSQL settings for the embedded database. PGlite's WebAssembly memory only grows, and its
 * defaults (128 MB of shared buffers, 64 MB of maintenance memory) size it for a server; the
 * embedded database is one user's data, cached by the operating system's page cache below it.
 */
export const PGLITE_SETTINGS = ["shared_buffers=16MB", "maintenance_work_mem=16MB"];

const PGLITE_ENTRY = import.meta.resolve("@electric-sql/pglite");

function templateFile(): string {
  // the package exports no package.json: its folder is found from its entry point
  const packageDir = /^(.*\/node_modules\/@electric-sql\/pglite)\//.exec(fileURLToPath(PGLITE_ENTRY))![1]!;
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string };
  // beside the installed packages, like other tools' caches; made again when PGlite changes
  return join(packageDir, "..", "..", ".cache", "platform", `pglite-${version}-initdb.tgz`);
}

// runs in the worker: initdb in memory, then the data folder as a gzipped tarball
const INITDB = `
const { parentPort, workerData } = require("node:worker_threads");
import(workerData.pglite).then(async ({ PGlite }) => {
  const db = await PGlite.create("memory://");
  const dump = await db.dumpDataDir("gzip");
  await db.close();
  parentPort.postMessage(new Uint8Array(await dump.arrayBuffer()));
});
`;

function initdbInWorker(): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(INITDB, { eval: true, workerData: { pglite: PGLITE_ENTRY } });
    worker.once("message", (tarball: Uint8Array) => {
      resolve(tarball);
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the PGlite initdb worker exited with ${code}`)));
  });
}

let template: Promise<Blob> | undefined;

/** The initdb template: from the cache, else made (and cached when the cache folder is writable). */
export function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const file = templateFile();
    const cached = await readFile(file).catch(() => undefined);
    if (cached) return new Blob([cached]);
    const tarball = await initdbInWorker();
    // several processes may make it at once: each writes its own file and renames it into place
    const partial = `${file}.${process.pid}.${Date.now()}`;
    await mkdir(dirname(file), { recursive: true })
      .then(() => writeFile(partial, tarball))
      .then(() => rename(partial, file))
      .catch(() => undefined);
    return new Blob([tarball]);
  })();
  template.catch(() => (template = undefined));
  return template;
}

/**
 * Makes `location` a new database folder from the template. Streamed to disk: PGlite's own
 * loadDataDir holds the 40 MB of files in memory at once, and the process's allocator keeps the
 * pages long after (some 60 MB of steady RSS). Unpacked beside `location` and renamed into place,
 * so an interrupted start leaves no half database.
 */
export async function unpackTemplate(location: string): Promise<void> {
  const tarball = Buffer.from(await (await pgliteTemplate()).arrayBuffer());
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
