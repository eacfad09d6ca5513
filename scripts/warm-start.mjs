// postinstall (after the Prisma clients) and the image build: what the first `npm start` would
// otherwise do before it listens, about 4 s of the 6 a first start took: build dist/ (when stale)
// and make the embedded database's template, initdb and every migration applied
// (lib/db/pglite-template.ts). Best effort: a failure here only leaves that work to `npm start`,
// which reports it. Skipped where the sources are not there yet (the image installs packages
// before it copies them).
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
if (existsSync(join(root, "lib", "db", "pglite-template.ts")) && existsSync(join(root, "bin", "start.ts"))) {
  try {
    const { build, isStale } = await import("./build.mjs");
    if (isStale()) await build();
    const { SUBGRAPH_NAMES } = await tsImport("../lib/graphql/subgraph-registry.ts", import.meta.url);
    const { migrationScripts, subgraphMigrationSets } = await tsImport("../lib/db/migrations.ts", import.meta.url);
    const { pgliteTemplate } = await tsImport("../lib/db/pglite-template.ts", import.meta.url);
    await pgliteTemplate(await migrationScripts(subgraphMigrationSets(SUBGRAPH_NAMES)));
    console.log("embedded database template ready");
  } catch (error) {
    console.warn(`warm start skipped (npm start will do it): ${error instanceof Error ? error.message : error}`);
  }
}
