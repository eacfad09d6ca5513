import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * `npm run bench:profile`: benchmark targets, each under `node --cpu-prof` (PostgreSQL and 32
 * connections unless BENCH_DATABASE / BENCH_CONNECTIONS say otherwise), and the server's
 * main-thread self time summed by package, as a markdown table, then each column's top functions
 * by self time. Only the samples of the measured load count (not the server's start, the seeding or
 * the warm-up), and idle time is left out, so the shares are of the CPU the process spent serving.
 * BENCH_PROFILE_TARGETS picks the columns by key (comma-separated, default all); the feed's column
 * seeds run.ts's default rows (100,000 on PostgreSQL), the others 1,000, unless BENCH_FEED_ROWS says.
 */
const TARGETS = [
  { key: "user-rest", column: "user REST", only: "user: REST" },
  { key: "user-graphql", column: "user GraphQL", only: "user: GraphQL" },
  { key: "three-subgraphs", column: "three subgraphs GraphQL", only: "three subgraphs: GraphQL" },
  { key: "feed", column: "feed REST", only: "feed: REST", feedRows: "default" },
].filter((target) => !process.env.BENCH_PROFILE_TARGETS || process.env.BENCH_PROFILE_TARGETS.split(",").includes(target.key));
if (TARGETS.length === 0) throw new Error("BENCH_PROFILE_TARGETS: expected some of user-rest, user-graphql, three-subgraphs, feed");
/** How many functions each column lists. */
const TOP_FUNCTIONS = 15;
const ROOT = join(import.meta.dirname, "..");

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
  startTime: number;
  nodes: { id: number; callFrame: { url: string; functionName: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

const sourceMaps = new Map<string, SourceMap | undefined>();
const DIST_URL = pathToFileURL(join(ROOT, "dist")).href + "/";

/** Where a frame's code came from: the bench runs the bundle (dist/), whose source map names the file and line. */
function sourceOf(frame: Profile["nodes"][number]["callFrame"]): { url: string; line: number; column?: number } {
  const bundle = frame.url.startsWith(DIST_URL) && fileURLToPath(frame.url);
  if (!bundle) return { url: frame.url, line: frame.lineNumber };
  if (!sourceMaps.has(bundle)) sourceMaps.set(bundle, existsSync(`${bundle}.map`) ? new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, "utf8"))) : undefined);
  const entry = sourceMaps.get(bundle)?.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
  return entry?.originalSource ? { url: entry.originalSource, line: entry.originalLine ?? 0 } : { url: frame.url, line: frame.lineNumber, column: frame.columnNumber };
}

/** A source as the tables show it: relative to the repository. */
function shortSource(url: string): string {
  const path = url.startsWith("file:") ? fileURLToPath(url) : url;
  return path.startsWith("/") ? relative(ROOT, path) : path.replace(/^(\.\.\/)+/, "");
}

function groupOf(url: string, functionName: string): string | undefined {
  if (functionName === "(idle)") return undefined;
  if (!url) return functionName === "(garbage collector)" ? "garbage collector" : "native / V8";
  for (const [name, pattern] of GROUPS) if (pattern.test(url)) return name;
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  return pkg ? pkg[1]! : "other";
}

interface Column {
  /** self time per group, as shares of the non-idle total */
  packages: Map<string, number>;
  /** self time per function (name, source and line), as shares of the non-idle total, largest first */
  functions: { name: string; source: string; share: number }[];
}

/** The samples taken during the measured loads (run.ts's load-windows.json), in the profile's clock. */
function columnOf(profile: Profile, windows: { start_us: number; end_us: number }[]): Column {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const packages = new Map<string, number>();
  const functions = new Map<string, { name: string; source: string; share: number }>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (!windows.some((window) => at >= window.start_us && at <= window.end_us)) return;
    const frame = nodes.get(id)!.callFrame;
    const { url, line, column } = sourceOf(frame);
    const group = groupOf(url, frame.functionName);
    if (!group) return;
    const delta = profile.timeDeltas[i] ?? 0;
    packages.set(group, (packages.get(group) ?? 0) + delta);
    // a bundle frame the source map does not cover (esbuild's helpers) keeps its column
    const source = url ? `${shortSource(url)}:${line + 1}${column === undefined ? "" : `:${column + 1}`}` : "";
    const key = `${frame.functionName}\u0000${source}`;
    const entry = functions.get(key) ?? { name: frame.functionName || "(anonymous)", source, share: 0 };
    entry.share += delta;
    functions.set(key, entry);
    total += delta;
  });
  return {
    packages: new Map([...packages].map(([group, t]) => [group, t / total])),
    functions: [...functions.values()].map((entry) => ({ ...entry, share: entry.share / total })).sort((a, b) => b.share - a.share),
  };
}

async function profileOf(target: (typeof TARGETS)[number]): Promise<Column> {
  const dir = await mkdtemp(join(tmpdir(), "bench-profile-"));
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "bench/run.ts"], {
        cwd: ROOT,
        env: {
          BENCH_DATABASE: "postgres",
          BENCH_CONNECTIONS: "32",
          // seeding is outside the measured load, but a hundred thousand rows take a while
          ...(target.feedRows !== "default" && { BENCH_FEED_ROWS: "1000" }),
          BENCH_COLD_START: "0",
          ...process.env,
          BENCH_CPU_PROF: dir,
          BENCH_ONLY: target.only,
        },
        stdio: ["ignore", "inherit", "inherit"],
      });
      child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`bench exited with ${code}`))));
    });
    // the server's main thread wrote the largest profile (workers write small ones)
    const profiles = (await readdir(dir)).filter((name) => name.endsWith(".cpuprofile"));
    const files = await Promise.all(profiles.map(async (name) => ({ name, size: (await stat(join(dir, name))).size })));
    const main = files.sort((a, b) => b.size - a.size)[0];
    if (!main) throw new Error("no CPU profile was written");
    const windows = JSON.parse(await readFile(join(dir, "load-windows.json"), "utf8")) as { start_us: number; end_us: number }[];
    return columnOf(JSON.parse(await readFile(join(dir, main.name), "utf8")) as Profile, windows);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
const columns: Column[] = [];
for (const target of TARGETS) columns.push(await profileOf(target));
const groups = [...new Set(columns.flatMap((column) => [...column.packages.keys()]))].sort((a, b) => (columns[0]!.packages.get(b) ?? 0) - (columns[0]!.packages.get(a) ?? 0));
console.log(`\nmain-thread self time by package, share of busy CPU (${process.env.BENCH_DATABASE ?? "postgres"}, ${process.env.BENCH_CONNECTIONS ?? "32"} connections)\n`);
console.log(`| package | ${TARGETS.map((t) => t.column).join(" | ")} |`);
console.log(`|---|${TARGETS.map(() => "---:").join("|")}|`);
for (const group of groups) {
  if (columns.every((column) => (column.packages.get(group) ?? 0) < 0.001)) continue;
  console.log(`| ${group} | ${columns.map((column) => percent(column.packages.get(group) ?? 0)).join(" | ")} |`);
}
TARGETS.forEach((target, i) => {
  console.log(`\n${target.column}: top ${TOP_FUNCTIONS} functions by self time, share of busy CPU\n`);
  console.log(`| function | source | share |`);
  console.log(`|---|---|---:|`);
  for (const { name, source, share } of columns[i]!.functions.slice(0, TOP_FUNCTIONS)) console.log(`| \`${name}\` | ${source ? `\`${source}\`` : "(native)"} | ${percent(share)} |`);
});
