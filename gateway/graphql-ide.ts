import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { appError } from "../lib/errors/app-error.ts";
import { StaticBody } from "../lib/static-body.ts";

/**
 * GraphiQL for browsers on the public GraphQL listener (GRAPHQL_IDE): a GET to `/graphql` or
 * `/graphql/agent` that prefers HTML gets a page running GraphiQL against that same path. Its
 * files come from npm packages (graphiql's prebuilt bundle and React 18's UMD builds, which it
 * needs as globals) under `/graphql/ide/`, and its start-up code is a file there too, so the
 * listeners' Content-Security-Policy (`script-src 'self'`, no inline script, no eval) lets it run:
 * nothing from a CDN, as Swagger UI on `/docs`. Apollo's own landing page loaded from its CDN.
 */
export const IDE_ASSETS_PATH = "/graphql/ide";

/** Apollo answers a GET whose Accept puts HTML before JSON with its landing page; such a GET gets ours instead. */
export function wantsIde(request: FastifyRequest): boolean {
  if (request.method !== "GET") return false;
  let html = 0;
  let json = 0;
  for (const part of (request.headers.accept ?? "").split(",")) {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith("q="))?.slice(2) ?? 1);
    const weight = Number.isFinite(q) ? q : 0;
    if (range === "text/html") html = Math.max(html, weight);
    else if (range === "application/json" || range === "application/graphql-response+json" || range === "*/*") json = Math.max(json, weight);
  }
  return html > 0 && html > json;
}

/** The page for `endpoint` (the route it is served on, which its requests go to). */
export function sendIdePage(reply: FastifyReply, endpoint: string): FastifyReply {
  return reply.type("text/html; charset=utf-8").send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>GraphiQL: ${endpoint}</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="${IDE_ASSETS_PATH}/graphiql.min.css"><link rel="stylesheet" href="${IDE_ASSETS_PATH}/ide.css"></head>
<body><div id="graphiql" data-endpoint="${endpoint}">Loading GraphiQL…</div>
<script src="${IDE_ASSETS_PATH}/react.production.min.js"></script><script src="${IDE_ASSETS_PATH}/react-dom.production.min.js"></script>
<script src="${IDE_ASSETS_PATH}/graphiql.min.js"></script><script src="${IDE_ASSETS_PATH}/ide.js"></script></body></html>`);
}

/** The IDE's files, cached by browsers for a day like /docs' and compressed like them (documents: never rate limited, no credential). */
export function registerIdeAssets(app: FastifyInstance): void {
  app.get(`${IDE_ASSETS_PATH}/:file`, async (request, reply) => {
    const file = (request.params as { file: string }).file;
    const asset = ASSETS.get(file);
    if (!asset) throw appError("GEN-404-001", `No GraphQL IDE asset ${file} exists.`);
    return asset.send(request, reply);
  });
}

const JAVASCRIPT = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";

/** What a new tab holds: where credentials go, and a query that runs without one. */
const DEFAULT_QUERY = `# Credentials go in the Headers tab below, as on REST: {"x-platform-jwt": "<JWT>"},
# {"x-platform-pat": "<PAT>"} or, on /graphql/agent, {"x-platform-token": "<agent token>"}.
# The Docs pane lists every type and field.
{
  __typename
}
`;

/**
 * Started from a file, not inline, for the CSP. GraphiQL keeps the Headers tab in memory only
 * (not in localStorage). The simple fetcher: nothing here streams (@defer).
 */
const START_SCRIPT = `const element = document.getElementById("graphiql");
const fetcher = GraphiQL.createFetcher({ url: element.dataset.endpoint, enableIncrementalDelivery: false });
const defaultQuery = ${JSON.stringify(DEFAULT_QUERY)};
ReactDOM.createRoot(element).render(React.createElement(GraphiQL, { fetcher, defaultQuery, defaultEditorToolsVisibility: "headers" }));
`;

/** GraphiQL fills the window. */
const PAGE_STYLE = "html,body,#graphiql{height:100%;margin:0}\n";

const FILES: Record<string, { package: string; path: string; type: string }> = {
  "graphiql.min.js": { package: "graphiql", path: "graphiql.min.js", type: JAVASCRIPT },
  "graphiql.min.css": { package: "graphiql", path: "graphiql.min.css", type: CSS },
  "react.production.min.js": { package: "react", path: "umd/react.production.min.js", type: JAVASCRIPT },
  "react-dom.production.min.js": { package: "react-dom", path: "umd/react-dom.production.min.js", type: JAVASCRIPT },
};

const ASSET_CACHE = { "cache-control": "public, max-age=86400" };

// each read on first use (1.3 MB that costs nothing to a listener no browser opens), compressed once per coding
const ASSETS = new Map<string, StaticBody>([
  ["ide.js", StaticBody.of(JAVASCRIPT, START_SCRIPT, ASSET_CACHE)],
  ["ide.css", StaticBody.of(CSS, PAGE_STYLE, ASSET_CACHE)],
  ...Object.entries(FILES).map(([file, known]): [string, StaticBody] => [
    file,
    new StaticBody(known.type, () => readFile(join(dirname(createRequire(import.meta.url).resolve(`${known.package}/package.json`)), known.path)), ASSET_CACHE),
  ]),
]);
