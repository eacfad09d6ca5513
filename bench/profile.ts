import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * `npm run bench:profile`: the benchmark's REST and GraphQL user paths, each under `node
 * --cpu-prof` (PostgreSQL and 32 connections unless BENCH_DATABASE / BENCH_CONNECTIONS say
 * otherwise), and the server's main-thread self time summed by package, as a markdown table.
 * Idle time is left out, so the shares are of the CPU the process spent.
 */
const TARGETS = [
  { column: "REST", only: "user: REST" },
  { column: "GraphQL", only: "user: GraphQL" },
];

/** Package groups, first match wins; anything else under node_modules is named by its package. */
const GROUPS: [string, RegExp][] = [
  ["Prisma", /node_modules\/(@prisma|\.prisma)\/|\/generated\/.*prisma/],
  ["pg (pg, pg-pool, pg-protocol)", /node_modules\/pg(-pool|-protocol|-types|-connection-string)?\//],
  ["Apollo Gateway + federation", /node_modules\/@apollo\/(gateway|federation-internals|query-planner|query-graphs|composition)\//],
  ["Apollo Server", /node_modules\/@apollo\/(server|utils)/],
  ["graphql-js", /node_modules\/graphql\//],
  ["type-graphql", /node_modules\/type-graphql\//],
  ["class-validator", /node_modules\/class-validator\//],
  ["jose", /node_modules\/jose\//],
  ["fastify + ajv", /node_modules\/(fastify|@fastify|find-my-way|light-my-request|avvio|ajv|fast-json-stringify|fast-querystring|secure-json-parse)/],
  ["pino", /node_modules\/(pino|thread-stream|sonic-boom)/],
  ["prom-client / OpenTelemetry", /node_modules\/(prom-client|@opentelemetry)\//],
  ["ours: rest-adapter", /\/rest-adapter\//],
  ["ours: gateway", /\/gateway\//],
  ["ours: lib", /\/lib\//],
  ["ours: subgraphs", /\/subgraphs\//],
  ["ours: server", /\/server\//],
  ["node internals", /^node:/],
  ["WebAssembly (Prisma's query compiler; PGlite)", /^wasm:\/\//],
];

interface Profile {
  nodes: { id: number; callFrame: { url: string; functionName: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

const sourceMaps = new Map<string, SourceMap | undefined>();
const DIST_URL = pathToFileURL(join(import.meta.dirname, "..", "dist")).href + "/";

/** The bench runs the bundle (dist/): its source map names the file each function came from. */
function sourceUrl(frame: Profile["nodes"][number]["callFrame"]): string {
  const bundle = frame.url.startsWith(DIST_URL) && fileURLToPath(frame.url);
  if (!bundle) return frame.url;
  if (!sourceMaps.has(bundle)) sourceMaps.set(bundle, existsSync(`${bundle}.map`) ? new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, "utf8"))) : undefined);
  const entry = sourceMaps.get(bundle)?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string } | undefined;
  return entry?.originalSource ?? frame.url;
}

function groupOf(url: string, functionName: string): string | undefined {
  if (functionName === "(idle)") return undefined;
  if (!url) return functionName === "(garbage collector)" ? "garbage collector" : "native / V8";
  for (const [name, pattern] of GROUPS) if (pattern.test(url)) return name;
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  return pkg ? pkg[1]! : "other";
}

/** Self time per group, as shares of the non-idle total. */
function shares(profile: Profile): Map<string, number> {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const time = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)!.callFrame;
    const group = groupOf(sourceUrl(frame), frame.functionName);
    if (!group) return;
    const delta = profile.timeDeltas[i] ?? 0;
    time.set(group, (time.get(group) ?? 0) + delta);
    total += delta;
  });
  return new Map([...time].map(([group, t]) => [group, t / total]));
}

async function profileOf(only: string): Promise<Map<string, number>> {
  const dir = await mkdtemp(join(tmpdir(), "bench-profile-"));
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "bench/run.ts"], {
        cwd: join(import.meta.dirname, ".."),
        env: { BENCH_DATABASE: "postgres", BENCH_CONNECTIONS: "32", BENCH_FEED_ROWS: "1000", BENCH_COLD_START: "0", ...process.env, BENCH_CPU_PROF: dir, BENCH_ONLY: only },
        stdio: ["ignore", "inherit", "inherit"],
      });
      child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`bench exited with ${code}`))));
    });
    // the server's main thread wrote the largest profile (workers write small ones)
    const files = await Promise.all((await readdir(dir)).map(async (name) => ({ name, size: (await stat(join(dir, name))).size })));
    const main = files.sort((a, b) => b.size - a.size)[0];
    if (!main) throw new Error("no CPU profile was written");
    return shares(JSON.parse(await readFile(join(dir, main.name), "utf8")) as Profile);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const columns: Map<string, number>[] = [];
for (const target of TARGETS) columns.push(await profileOf(target.only));
const groups = [...new Set(columns.flatMap((column) => [...column.keys()]))].sort((a, b) => (columns[0]!.get(b) ?? 0) - (columns[0]!.get(a) ?? 0));
console.log(`\nmain-thread self time by package, share of busy CPU (${process.env.BENCH_DATABASE ?? "postgres"}, ${process.env.BENCH_CONNECTIONS ?? "32"} connections)\n`);
console.log(`| package | ${TARGETS.map((t) => t.column).join(" | ")} |`);
console.log(`|---|${TARGETS.map(() => "---:").join("|")}|`);
for (const group of groups) {
  const cells = columns.map((column) => `${((column.get(group) ?? 0) * 100).toFixed(1)} %`);
  if (columns.every((column) => (column.get(group) ?? 0) < 0.001)) continue;
  console.log(`| ${group} | ${cells.join(" | ")} |`);
}
