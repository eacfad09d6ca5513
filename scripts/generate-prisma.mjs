// postinstall and `npm run generate`: generates each subgraph's Prisma client from
// prisma/<folder>/schema.prisma. Plain JavaScript, because it runs before anything else works; the
// subgraph registry is TypeScript (so the rest of the code gets its names as types), loaded here
// with tsx (a runtime dependency, installed before postinstall runs) since it imports nothing.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { SUBGRAPHS } = await tsImport("../lib/graphql/subgraph-registry.ts", import.meta.url);
const prismaCli = join(root, "node_modules", "prisma", "build", "index.js");

const env = {
  ...process.env,
  // The CLI fetches the native schema engine before generating, which fails offline; generate
  // does not need it, so point it at a stub (migrations go through scripts/migrate.ts).
  PRISMA_SCHEMA_ENGINE_BINARY: join(root, "scripts", "no-schema-engine.sh"),
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
};

function generate({ name: subgraph, prismaFolder }) {
  return new Promise((resolve) => {
    const schema = join("prisma", prismaFolder, "schema.prisma");
    const child = spawn(process.execPath, [prismaCli, "generate", "--schema", schema], { cwd: root, env });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ subgraph, ok: false, output: error.message }));
    child.on("close", (code) => resolve({ subgraph, ok: code === 0, output }));
  });
}

const results = await Promise.all(SUBGRAPHS.map(generate));
for (const { subgraph, ok, output } of results) {
  if (ok) console.log(`prisma client generated for ${subgraph}`);
  else console.error(`prisma generate failed for ${subgraph}:\n${output.trim()}`);
}
if (results.some((result) => !result.ok)) process.exit(1);
