import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { appError } from "../../lib/errors/app-error.ts";
import { ERROR_CATALOGUE, errorTypeName, type ErrorCode } from "../../lib/errors/catalogue.ts";
import type { RateLimitedBy } from "./route.ts";
import { StaticBody } from "../../lib/static-body.ts";

/**
 * What every listener documents about itself: `/openapi.json`, an interactive reference of it at
 * `/docs` (Swagger UI, served from the swagger-ui-dist package, no CDN), and the pages behind
 * error URIs: `/errors/<code>` (platform `type`) and `/docs/errors/<code or type name>` (identity
 * `type` and `documentation`, under DOCS_URL), with an index of every code at `/errors` and
 * `/docs/errors`. Error pages are HTML to browsers, JSON otherwise; a name no error has is a 404,
 * an HTML page to browsers too (the name not repeated), a ProblemDetail otherwise.
 */
export function registerDocumentation(app: FastifyInstance, document: Record<string, unknown>): void {
  const title = ((document.info as { title?: string } | undefined)?.title ?? "API") + " reference";
  // serialised once, compressed once per coding (StaticBody): the document is hundreds of kilobytes
  const openapi = StaticBody.of("application/json; charset=utf-8", JSON.stringify(document));
  app.get("/openapi.json", { config }, async (request, reply) => openapi.send(request, reply));
  app.get("/docs", { config }, async (_request, reply) => reply.type("text/html; charset=utf-8").send(referencePage(title)));
  app.get("/docs/assets/:file", { config }, async (request, reply) => {
    return sendSwaggerAsset(request, reply, (request.params as { file: string }).file);
  });
  app.get("/errors/:code", { config }, async (request, reply) => sendErrorPage(request, reply, (request.params as { code: string }).code, "/errors"));
  app.get("/docs/errors/:name", { config }, async (request, reply) => sendErrorPage(request, reply, (request.params as { name: string }).name, "/docs/errors"));
  app.get("/errors", { config }, async (request, reply) => sendErrorIndex(request, reply, "/errors"));
  app.get("/docs/errors", { config }, async (request, reply) => sendErrorIndex(request, reply, "/docs/errors"));
  // browsers ask every page's origin for it
  app.get("/favicon.ico", { config }, async (request, reply) => sendSwaggerAsset(request, reply, "favicon-32x32.png"));
}

/** Documents are static and in memory: counting them per address (a database write with the shared store) would cost more than serving them. */
const config = { rateLimit: "never" } satisfies { rateLimit: RateLimitedBy };

interface ErrorEntry {
  error_code: ErrorCode;
  status: number;
  title: string;
  detail: string;
  type_name: string;
}

const ENTRIES: ErrorEntry[] = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).map((code) => {
  const { status, title, detail } = ERROR_CATALOGUE[code];
  return { error_code: code, status, title, detail, type_name: errorTypeName(code) };
});

/** A code (any case) names one error; a type name may name several (`not_found` is generic and identity's). */
function errorsNamed(name: string): ErrorEntry[] {
  const code = name.toUpperCase();
  const byCode = ENTRIES.filter((entry) => entry.error_code === code);
  return byCode.length > 0 ? byCode : ENTRIES.filter((entry) => entry.type_name === name.toLowerCase());
}

function sendErrorPage(request: FastifyRequest, reply: FastifyReply, name: string, index: string) {
  const entries = errorsNamed(name);
  const html = prefersHtml(request.headers.accept);
  if (entries.length === 0) {
    if (html) return reply.code(404).type("text/html; charset=utf-8").send(page("No such error", "<h1>No such error</h1>\n<p>No error code or type name is spelled like this.</p>", index));
    throw appError("GEN-404-001", `No error code or type ${name} exists.`);
  }
  if (html) return reply.type("text/html; charset=utf-8").send(errorPage(name, entries, index));
  if (entries.length === 1 && entries[0]!.error_code === name.toUpperCase()) return reply.send(entries[0]);
  return reply.send({ type_name: name.toLowerCase(), errors: entries });
}

/** Browsers ask for text/html before anything else; API clients (`*\/*`, JSON) get JSON. */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  let html = 0;
  let json = 0;
  for (const part of accept.split(",")) {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith("q="))?.slice(2) ?? 1);
    const weight = Number.isFinite(q) ? q : 0;
    if (range === "text/html") html = Math.max(html, weight);
    else if (range === "application/json" || range === "application/problem+json" || range === "*/*") json = Math.max(json, weight);
  }
  return html > json;
}

const escapeHtml = (value: string | number) =>
  String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

const PAGE_STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}code{background:#f2f2f2;padding:0 .25rem}section{border-top:1px solid #ddd;margin-top:1.5rem}table{border-collapse:collapse}td,th{text-align:left;padding:.2rem .6rem .2rem 0;vertical-align:top}";

/** Every catalogue code, each linking to its page under `prefix`: HTML to browsers, else `{errors: [...]}`. */
function sendErrorIndex(request: FastifyRequest, reply: FastifyReply, prefix: string) {
  if (!prefersHtml(request.headers.accept)) return reply.send({ errors: ENTRIES });
  const rows = ENTRIES.map(
    (e) => `<tr><td><a href="${prefix}/${escapeHtml(e.error_code)}"><code>${escapeHtml(e.error_code)}</code></a></td><td>${e.status}</td><td>${escapeHtml(e.title)}</td><td><code>${escapeHtml(e.type_name)}</code></td></tr>`,
  ).join("\n");
  return reply.type("text/html; charset=utf-8").send(
    page(
      "Error codes",
      `<h1>Error codes</h1>\n${PROBLEM_NOTE}\n<table><thead><tr><th>Code</th><th>Status</th><th>Title</th><th>Type name</th></tr></thead><tbody>\n${rows}\n</tbody></table>`,
      undefined,
    ),
  );
}

const PROBLEM_NOTE =
  "<p>Errors are RFC 7807 problem details (<code>application/problem+json</code>): <code>type</code>, <code>title</code>, <code>status</code>, <code>detail</code>, <code>instance</code>, <code>error_code</code>, <code>trace_id</code>. Quote the <code>trace_id</code> when you ask for help.</p>";

/** A documentation page: `body`, then links to the error index (`index`) and the API reference. */
function page(title: string, body: string, index: string | undefined): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="/docs/assets/favicon-32x32.png"><style>${PAGE_STYLE}</style></head>
<body>${body}
<p>${index ? `<a href="${index}">Every error code</a> · ` : ""}<a href="/docs">API reference</a></p></body></html>`;
}

function errorPage(name: string, entries: ErrorEntry[], index: string): string {
  const sections = entries
    .map(
      (e) => `<section id="${escapeHtml(e.error_code)}"><h2>${escapeHtml(e.error_code)}: ${escapeHtml(e.title)}</h2>
<p>HTTP status <strong>${e.status}</strong>, type name <code>${escapeHtml(e.type_name)}</code>.</p>
<p>${escapeHtml(e.detail)}</p></section>`,
    )
    .join("\n");
  return page(entries.length === 1 ? `${entries[0]!.error_code} ${entries[0]!.title}` : name, `<h1>Error ${escapeHtml(name)}</h1>\n${PROBLEM_NOTE}\n${sections}`, index);
}

function referencePage(title: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"><link rel="icon" href="/docs/assets/favicon-32x32.png"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/reference.js"></script></body></html>`;
}

/** One of swagger-ui-dist's files (or the page's script), cached by browsers for a day; a file not in the list is a 404. */
function sendSwaggerAsset(request: FastifyRequest, reply: FastifyReply, file: string) {
  const asset = ASSETS.get(file);
  if (!asset) throw appError("GEN-404-001", `No documentation asset ${file} exists.`);
  return asset.send(request, reply);
}

/** Outside the page so a Content-Security-Policy without 'unsafe-inline' scripts lets it run. */
const REFERENCE_SCRIPT = `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true, displayRequestDuration: true });\n`;

const ASSET_CACHE = { "cache-control": "public, max-age=86400" };

const ASSET_TYPES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

/** Read on first use (the 1.7 MB bundle costs nothing at start-up or for clients that never open /docs), compressed once per coding, shared by every listener. */
const ASSETS = new Map<string, StaticBody>([
  ["reference.js", StaticBody.of("text/javascript; charset=utf-8", REFERENCE_SCRIPT, ASSET_CACHE)],
  ...Object.entries(ASSET_TYPES).map(([file, type]): [string, StaticBody] => [
    file,
    new StaticBody(type, () => readFile(join(dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json")), file)), ASSET_CACHE),
  ]),
]);
