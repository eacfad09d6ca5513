// `npm run build`: bundles the entry points into dist/ with esbuild (the transpiler tsx runs on,
// so the output behaves as `tsx` did), with the packages they use, but for those listed in
// EXTERNAL. `npm start` runs the bundle: a few files read and parsed instead of hundreds of
// TypeScript files transformed and over a thousand package files resolved at every start;
// scripts/run-built.mjs builds first when a source file or the installed packages are newer than
// the last build, so `npm start` after an edit never runs old code. Plain JavaScript: it must run
// before anything is compiled.
import { readdirSync, statSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DIST = join(ROOT, "dist");
const STAMP = join(DIST, ".built");
// what the bundle is made of (the generated Prisma clients are under subgraphs/)
const SOURCE_DIRS = ["bin", "lib", "server", "gateway", "rest-adapter", "subgraphs", "bench", "test/support"];
const ENTRY_POINTS = { start: "bin/start.ts", service: "bin/service.ts", mcp: "bin/mcp.ts", token: "bin/token.ts", "bench-server": "bench/server.ts" };

function newestChange(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** A file's modification time, 0 when it does not exist. */
function modified(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

export function isStale() {
  const built = modified(STAMP);
  if (built === 0) return true;
  const installed = ["package-lock.json", "node_modules/.package-lock.json"].map((file) => modified(join(ROOT, file)));
  return Math.max(...installed) > built || SOURCE_DIRS.some((dir) => newestChange(join(ROOT, dir)) > built);
}

/**
 * Packages that stay imports from node_modules: those that load files beside their own code
 * (Prisma's and PGlite's WebAssembly, pino's transport workers), those whose loading
 * instrumentation hooks (OpenTelemetry, Prisma), those shared with one of them that must be one
 * instance (pg, with both Prisma adapters), reflect-metadata, which every chunk imports first,
 * and @apollo/utils.createhash, which hashes with node:crypto only when it finds a real
 * `module.require` (a bundle's CommonJS shim has none: it fell back to a JavaScript SHA-256).
 * Everything else is bundled: resolving and reading ~1,950 package files (130 now) was a quarter
 * of the start-up, and tree-shaking drops what the bundle never calls (most of viem, bip39's
 * wordlists).
 */
const EXTERNAL = [
  "@prisma/*",
  ".prisma/*",
  "@electric-sql/pglite",
  "pglite-prisma-adapter",
  "pg",
  "pino",
  "thread-stream",
  "@opentelemetry/*",
  "reflect-metadata",
  "@apollo/utils.createhash",
];

/**
 * Bundled packages without their own source maps, whose relative paths (`../src/…`) would hide
 * which package a frame is in: the bundle's map then names their files under node_modules/, which
 * is how bench:profile groups them.
 */
const packageSourceMapsDropped = {
  name: "package-source-maps-dropped",
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.(c|m)?js$/ }, async (args) => ({ contents: await packageSource(args.path), loader: "js" }));
  },
};

/** A package file's text without its source map comment: what packageSourceMapsDropped loads, for the plugins that change a file too. */
async function packageSource(path) {
  const contents = await readFile(path, "utf8");
  return contents.includes("//# sourceMappingURL=") ? contents.replace(/^\/\/# sourceMappingURL=.*$/gm, "") : contents;
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
 * Apollo Gateway's node-fetch (through whatwg-url and tr46) requires Node's own `punycode`, which
 * Node 22 and later warn about at every start (DEP0040) once it is bundled outside node_modules.
 * The bundle takes the same code from npm instead, as Node's notice advises: `punycode.js`, the
 * `punycode` package under a name no one mistakes for Node's (graphiql's markdown-it uses it too).
 */
const userlandPunycode = {
  name: "userland-punycode",
  setup(build) {
    build.onResolve({ filter: /^(node:)?punycode$/ }, () => ({ path: createRequire(import.meta.url).resolve("punycode.js") }));
  },
};

/**
 * graphql-js checks every `instanceOf` by class name as well unless NODE_ENV is `production`, to
 * warn about two copies of graphql in one process: about 4 % of a GraphQL request's CPU when
 * `npm start` runs without NODE_ENV. The bundle holds exactly one copy, so its check is the plain
 * `instanceof` whatever NODE_ENV says; NODE_ENV keeps its meaning (sandbox routes) everywhere else.
 */
export const graphqlSingleCopy = {
  name: "graphql-single-copy",
  setup(build) {
    build.onLoad({ filter: /node_modules[\\/]graphql[\\/]jsutils[\\/]instanceOf\.m?js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const check = "process.env.NODE_ENV === 'production'";
      if (!source.includes(check)) throw new Error(`graphql-single-copy: ${args.path} no longer reads NODE_ENV as expected`);
      return { contents: source.replace(check, "true"), loader: "js" };
    });
  },
};

/**
 * Apollo Gateway requires, at load, what its usage reporting to Apollo needs (an OpenTelemetry
 * metrics SDK, four clouds' resource detectors, an OTLP exporter, the protobuf of query plan
 * traces, the incubating semantic conventions) and its composition (for supergraph managers that
 * compose at run time). None of it runs here: gateway/gateway.ts sets APOLLO_TELEMETRY_DISABLED,
 * inline traces are off, and the supergraph is composed before it ships. Loading them was a tenth
 * of the start-up and ~17 MB of heap, so the gateway's requires of them become modules that load
 * the real one on first use. So does its fetcher for remote subgraphs, make-fetch-happen (3.7 MB
 * of heap), which only the gateway of the split topology constructs.
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
  "@opentelemetry/semantic-conventions/incubating",
]);
const lazyGatewayModules = {
  name: "lazy-gateway-modules",
  setup(build) {
    const inGateway = (path) => /node_modules[\\/]@apollo[\\/]gateway[\\/]/.test(path);
    build.onResolve({ filter: /^(@(opentelemetry|apollo)\/|make-fetch-happen$)/ }, (args) => {
      if (args.namespace === "lazy") return { path: args.path, external: true };
      if (inGateway(args.importer) && (GATEWAY_LAZY.has(args.path) || args.path === "make-fetch-happen")) return { path: args.path, namespace: "lazy" };
      return undefined;
    });
    build.onLoad({ filter: /.*/, namespace: "lazy" }, (args) => ({
      contents:
        args.path === "make-fetch-happen"
          ? // the module is a function (fetch, with .defaults()) that the gateway imports through TypeScript's
            // __importDefault and __importStar, which read __esModule: an ES module whose default is that function
            `let loaded; const load = () => (loaded ??= require("make-fetch-happen")); const lazy = new Proxy(function () {}, { apply: (_, self, args) => Reflect.apply(load(), self, args), get: (_, key) => (key === "__esModule" ? true : key === "default" ? lazy : load()[key]) }); module.exports = lazy;`
          : `let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require(${JSON.stringify(args.path)}))[key] });`,
      loader: "js",
    }));
    // The gateway's OpenTelemetry helpers read two names of the incubating semantic conventions (2.3 MiB
    // of heap, 2,600 constants) at load; they are the installed package's own values, written in.
    build.onLoad({ filter: /node_modules[\\/]@apollo[\\/]gateway[\\/]dist[\\/]utilities[\\/]opentelemetry\.js$/ }, async (args) => {
      const source = await packageSource(args.path);
      const read = "incubating_1.ATTR_CLOUD_PROVIDER,\n    incubating_1.ATTR_CLOUD_PLATFORM,";
      if (!source.includes(read)) throw new Error(`lazy-gateway-modules: ${args.path} no longer reads the cloud attributes as expected`);
      const { ATTR_CLOUD_PROVIDER, ATTR_CLOUD_PLATFORM } = createRequire(args.path)("@opentelemetry/semantic-conventions/incubating");
      return { contents: source.replace(read, `${JSON.stringify(ATTR_CLOUD_PROVIDER)}, ${JSON.stringify(ATTR_CLOUD_PLATFORM)},`), loader: "js" };
    });
  },
};

/**
 * Apollo Gateway parses the supergraph with graphql-js's default, which keeps every token's position
 * (a Location per node and the token list behind them): 3.4 of the 5.8 MiB the parsed supergraph
 * holds for the life of the process. Positions serve only the errors of validating a supergraph,
 * which the gateway skips for ours (validateSupergraph: false in gateway/gateway.ts), so that path
 * parses without them; a gateway that validates parses as before.
 */
const supergraphWithoutLocations = {
  name: "supergraph-without-locations",
  setup(build) {
    build.onLoad({ filter: /node_modules[\\/]@apollo[\\/]gateway[\\/]dist[\\/]index\.js$/ }, async (args) => {
      const source = await packageSource(args.path);
      const built = "federation_internals_1.Supergraph.build(supergraphSdl, { validateSupergraph });";
      if (!source.includes(built)) throw new Error(`supergraph-without-locations: ${args.path} no longer builds the supergraph as expected`);
      const unlocated = 'federation_internals_1.Supergraph.build(validateSupergraph ? supergraphSdl : require("graphql").parse(supergraphSdl, { noLocation: true }), { validateSupergraph });';
      return { contents: source.replace(built, unlocated), loader: "js" };
    });
  },
};

/**
 * Prisma's generated clients import the query compiler's WebAssembly as a module whose one export is
 * its base64 text (2.2 MB): an ES module stays loaded, so its source and its string held 4.7 MiB of
 * heap for the life of the process, after the compiler was built from them once. The bundle reads
 * the same text from the same file instead, and lets it go once the module is compiled.
 */
const prismaWasmUnretained = {
  name: "prisma-wasm-unretained",
  setup(build) {
    build.onLoad({ filter: /[\\/]generated[\\/]prisma[\\/]internal[\\/]class\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const imported = /await import\("(@prisma\/client\/runtime\/query_compiler_[a-z_]+\.[a-z]+\.wasm-base64\.mjs)"\)/;
      const specifier = source.match(imported)?.[1];
      if (!specifier) throw new Error(`prisma-wasm-unretained: ${args.path} no longer imports the compiler's base64 as expected`);
      // the reading below takes what is between the first two double quotes: the module must be that one literal
      const text = await readFile(createRequire(args.path).resolve(specifier), "utf8");
      if (!/^const wasm = "[A-Za-z0-9+/=_-]+";\nexport \{ wasm \}\n?$/.test(text)) throw new Error(`prisma-wasm-unretained: ${specifier} is no longer one base64 literal`);
      const read = `{ wasm: (await import("node:fs")).readFileSync(new URL(import.meta.resolve(${JSON.stringify(specifier)})), "utf8").split('"')[1] }`;
      return { contents: source.replace(imported, read), loader: "ts" };
    });
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
    external: EXTERNAL,
    // type-graphql names GraphQL types after their classes: a bundle must not rename them
    keepNames: true,
    // V8 keeps each chunk's source for the life of the process, and a single character beyond
    // Latin-1 in it (an arrow or a dash in a comment) stores the whole chunk at two bytes a
    // character: without whitespace and comments, the heap holds 8 MiB of source instead of 17.
    // Identifiers stay, so stack traces still name their functions.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: "linked",
    sourcesContent: false,
    tsconfig: join(ROOT, "tsconfig.json"),
    plugins: [graphqlSingleCopy, prismaWasmUnretained, supergraphWithoutLocations, sourceDirname, lazyGatewayModules, userlandPunycode, packageSourceMapsDropped],
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
