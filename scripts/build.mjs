// `npm run build`: bundles the entry points into dist/ with esbuild (the transpiler tsx runs on,
// so the output behaves as `tsx` did), dependencies left as imports. `npm start` runs the bundle:
// a few files read and parsed instead of hundreds of TypeScript files transformed at every start;
// scripts/run-built.mjs builds first when a source file is newer than the last build, so `npm
// start` after an edit never runs old code. Plain JavaScript: it must run before anything is compiled.
import { readdirSync, statSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DIST = join(ROOT, "dist");
const STAMP = join(DIST, ".built");
// what the bundle is made of (the generated Prisma clients are under subgraphs/)
const SOURCE_DIRS = ["bin", "lib", "server", "gateway", "rest-adapter", "subgraphs", "bench", "test/support"];
const ENTRY_POINTS = { start: "bin/start.ts", service: "bin/service.ts", mcp: "bin/mcp.ts", "bench-server": "bench/server.ts" };

function newestChange(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function isStale() {
  let built;
  try {
    built = statSync(STAMP).mtimeMs;
  } catch {
    return true;
  }
  return SOURCE_DIRS.some((dir) => newestChange(join(ROOT, dir)) > built);
}

/**
 * A bundle puts every module in dist/, so `import.meta.dirname` (which the code uses to find
 * the supergraph, the agent contract and the migrations beside it) is rewritten to the source
 * file's own folder, relative to the bundle.
 */
const sourceDirname = {
  name: "source-dirname",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes("node_modules")) return undefined;
      const contents = await readFile(args.path, "utf8");
      if (!contents.includes("import.meta.dirname")) return { contents, loader: "ts" };
      const fromDist = relative(DIST, dirname(args.path)).split("\\").join("/");
      return { contents: contents.replaceAll("import.meta.dirname", `(import.meta.dirname + ${JSON.stringify(`/${fromDist}`)})`), loader: "ts" };
    });
  },
};

/**
 * Apollo Gateway requires, at load, what its usage reporting to Apollo needs (an OpenTelemetry
 * metrics SDK, four clouds' resource detectors, an OTLP exporter, the protobuf of query plan
 * traces) and its composition (for supergraph managers that compose at run time). None of it runs
 * here: gateway/gateway.ts sets APOLLO_TELEMETRY_DISABLED, inline traces are off, and the
 * supergraph is composed before it ships. Loading them was a tenth of the start-up and ~15 MB of heap. So the gateway's own files are bundled, and
 * those requires become modules that load the real one on first use.
 */
const GATEWAY_LAZY = new Set([
  "@apollo/composition",
  "@apollo/usage-reporting-protobuf",
  "@opentelemetry/sdk-metrics",
  "@opentelemetry/resources",
  "@opentelemetry/exporter-metrics-otlp-http",
  "@opentelemetry/resource-detector-alibaba-cloud",
  "@opentelemetry/resource-detector-aws",
  "@opentelemetry/resource-detector-gcp",
  "@opentelemetry/resource-detector-azure",
]);
const lazyGatewayModules = {
  name: "lazy-gateway-modules",
  setup(build) {
    const inGateway = (path) => /node_modules[\\/]@apollo[\\/]gateway[\\/]/.test(path);
    build.onResolve({ filter: /^@apollo\/gateway$/ }, () => ({ path: createRequire(join(ROOT, "package.json")).resolve("@apollo/gateway") }));
    build.onResolve({ filter: /^@(opentelemetry|apollo)\// }, (args) => {
      if (args.namespace === "lazy") return { path: args.path, external: true };
      if (inGateway(args.importer) && GATEWAY_LAZY.has(args.path)) return { path: args.path, namespace: "lazy" };
      return undefined;
    });
    // without the gateway's own source maps, whose relative paths esbuild cannot place: the
    // bundle's map then names its files under node_modules/@apollo/gateway (bench:profile groups them)
    build.onLoad({ filter: /[\\/]@apollo[\\/]gateway[\\/].*\.js$/ }, async (args) => ({
      contents: (await readFile(args.path, "utf8")).replace(/^\/\/# sourceMappingURL=.*$/m, ""),
      loader: "js",
    }));
    build.onLoad({ filter: /.*/, namespace: "lazy" }, (args) => ({
      contents: `let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require(${JSON.stringify(args.path)}))[key] });`,
      loader: "js",
    }));
  },
};

export async function build() {
  const esbuild = await import("esbuild");
  await rm(DIST, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ENTRY_POINTS,
    outdir: DIST,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    // type-graphql names GraphQL types after their classes: a bundle must not rename them
    keepNames: true,
    sourcemap: "linked",
    sourcesContent: false,
    tsconfig: join(ROOT, "tsconfig.json"),
    plugins: [sourceDirname, lazyGatewayModules],
    // type-graphql's decorators need the metadata polyfill before any chunk's classes load, and
    // ESM evaluates a file's imports first, so every output file imports it at its head; the
    // bundled gateway is CommonJS, whose requires of external packages need a require
    banner: { js: 'import "reflect-metadata"; import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
    logLevel: "warning",
  });
  await writeFile(STAMP, `${new Date().toISOString()}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await build();
  process.stderr.write(`built dist/ in ${Math.round(performance.now() - started)} ms\n`);
}
