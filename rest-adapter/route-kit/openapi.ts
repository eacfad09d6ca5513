import type { TSchema } from "@sinclair/typebox";
import { SPEC_VERSION } from "../../lib/contracts/api-version.ts";
import { CORS_REQUEST_HEADERS, CORS_RESPONSE_HEADERS } from "../../lib/cors.ts";
import { AppError } from "../../lib/errors/app-error.ts";
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_KEY_RETENTION_MS } from "../../lib/idempotency.ts";
import { errorDefinition, type ErrorCode } from "../../lib/errors/catalogue.ts";
import { jsonInvalid, MAX_JSON_DEPTH } from "../../lib/json-body.ts";
import { renderProblem, type ProblemContext, type ProblemDetail } from "./problem.ts";
import { exampleRequest } from "./tool-request.ts";
import { AGENT_ACTION_TAG, AGENT_TOOL_TAG, agentScopeOf, routeErrorCodes, type Route, type RouteErrorFacts, type SecurityScheme } from "./route.ts";
import { COMPONENTS } from "./components.ts";
import { TAG_DESCRIPTIONS } from "./tags.ts";
import { problemSchema } from "./schemas.ts";

export interface OpenApiOptions {
  title: string;
  /** what the host is: the first paragraph of `info.description`; a list of its tags follows, then `notes` */
  description: string;
  /** paragraphs after the list of tags (CORS) */
  notes?: string[];
  /** tags of operations the caller adds to the document itself (the RPC host's), declared first */
  tags?: string[];
  /** the host's public URL: the `type` URIs of the examples; the document's server is its path (documentServer) */
  serverUrl: string;
  routes: DocumentedRoute[];
  /** how the host renders errors (see ProblemContext): the examples' `type` URIs follow it; default platform */
  errorStyle?: ProblemContext["style"];
  /** {docs_url}, for identity-style `type` and `documentation` URIs in the examples */
  docsUrl?: string;
  /** requests this service makes to its integrators' endpoints (OpenAPI 3.1 `webhooks`) */
  webhooks?: DocumentedWebhook[];
  /** components besides COMPONENTS (each with its `$id`), such as the webhooks' payloads */
  schemas?: TSchema[];
}

/** A request this service sends (an outgoing event), as the document's `webhooks` shows it. */
export interface DocumentedWebhook {
  /** its key in `webhooks` */
  name: string;
  operationId: string;
  tag: string;
  summary: string;
  description: string;
  headers: { name: string; required: boolean; description: string; schema: Record<string, unknown> }[];
  body: TSchema;
  /** what each answer (`2XX`, a status, `default`) means to the sender */
  responses: Record<string, string>;
}

const CREDENTIAL_HEADERS = [
  { name: "x-platform-orgid", description: "`<org-id>:<env-id>`; absent means the default environment. Malformed: 401 USR-401-002." },
  { name: "x-platform-jwt", description: "JWT of an accepted issuer (PlatformJwt scheme)." },
  { name: "x-platform-token", description: "Agent token (AgentToken scheme), on its own: AgentTool operations (reads) and AgentAction operations (writes) only, within its scopes (403 AGT-403-001, AGT-403-002); invalid, expired or revoked: 401 USR-401-005." },
  { name: "x-platform-pat", description: "Personal access token (PlatformPat scheme)." },
];

const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    `Makes a retry safe: the first request with a key makes its change (moves the money; on an AgentAction, makes its write) and its answer (status and body) is stored with the change, in one database transaction; ` +
    `the same key with the same request (operation and body, key order aside) answers that stored response again without changing anything twice, also while the first is still running (the retry waits for it). ` +
    `The same key with another request: 422 \`TXN-422-001\`. Refused requests are not stored, so a key can be retried after fixing the cause. ` +
    `Keys are per user, 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters without spaces (a UUID is a good choice), and kept ${IDEMPOTENCY_KEY_RETENTION_MS / 3_600_000} hours; afterwards the same key starts a new request. Without the header every request makes its change anew.`,
  schema: { type: "string", pattern: IDEMPOTENCY_KEY_PATTERN, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
};

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Not authenticated",
  403: "Insufficient permissions",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  410: "Gone",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Validation error",
  424: "Failed dependency (an on-chain call failed; retry with backoff)",
  429: "Rate limited (see Retry-After)",
  500: "Internal error",
  502: "Upstream failure",
  503: "Unavailable",
};

/** A response header as the document shows it (OpenAPI Header Object). */
export interface HeaderObject {
  description: string;
  required?: boolean;
  schema: Record<string, unknown>;
}

/** Retry-After in seconds (spec 7.4, 8): `required` where every answer of the status carries it. */
export function retryAfterHeader(required: boolean, description: string): HeaderObject {
  return { description, required, schema: { type: "integer", minimum: 0 } };
}

/**
 * The headers documented on a route's answers with `status`: the route's fixed `headers`, and
 * Retry-After on every 429 (each limit sets it) and every 503 (lib/http.ts: the error's own
 * seconds, else one). The e2e response check holds answers to the required ones.
 */
export function responseHeaders(route: Pick<DocumentedRoute, "headers">, status: number): Record<string, HeaderObject> {
  const headers: Record<string, HeaderObject> = {};
  for (const [name, value] of Object.entries(route.headers ?? {})) headers[name] = { description: `Always \`${value}\`.`, schema: { type: "string", const: value } };
  if (status === 429) headers["Retry-After"] = retryAfterHeader(true, "Seconds to wait before retrying (spec 7.4).");
  if (status === 503) headers["Retry-After"] = retryAfterHeader(true, "Seconds to wait before retrying; every 503 carries it.");
  return headers;
}

/** JSON Schema out of TypeBox: symbols dropped, `Type.Ref("X")` pointed at the components. */
function jsonSchema(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema), (key, value) => (key === "$ref" && typeof value === "string" && !value.startsWith("#") ? `#/components/schemas/${value}` : value));
}

function parameters(schema: TSchema | undefined, location: "path" | "query") {
  if (!schema) return [];
  const object = jsonSchema(schema) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: location,
      required: location === "path" || (object.required ?? []).includes(name),
      ...(description !== undefined && { description }),
      schema: rest,
      ...(location === "query" && rest.type === "array" && { style: "form", explode: true }),
    };
  });
}

/** What the document needs of a route: route tables and webhook receivers both provide it. */
export type DocumentedRoute = Pick<Route, "operationId" | "tag" | "summary" | "description" | "responses" | "requestHeaders" | "headers"> & RouteErrorFacts;

/** What a model reading an AgentTool or AgentAction operation needs besides its description: scope, units, an example. */
function agentToolNote(route: DocumentedRoute): string | undefined {
  const scope = agentScopeOf(route);
  if (!scope) return undefined;
  const { method, url } = exampleRequest(route);
  const who = route.agentAction
    ? `**AgentAction**: a write an agent token (\`x-platform-token\`) with the scope \`${scope}\` may make; not an AgentTool (those only read).`
    : `**AgentTool**: an agent token (\`x-platform-token\`) with the scope \`${scope}\` may call it.`;
  return `${who} Amounts are decimal strings, never floats; timestamps are epoch milliseconds. Example: \`${method} ${url}\``;
}

/** The document's tags of a route: its own, and AgentTool (a read) or AgentAction (a write) where agents may call it. */
function routeTags(route: DocumentedRoute): string[] {
  if (route.agentScope && route.method !== "GET") throw new Error(`${route.operationId}: AgentTool operations are reads (spec 1); make an agent write an agentAction`);
  if (route.agentAction && route.method === "GET") throw new Error(`${route.operationId}: an AgentAction is a write; a GET agents may call is an AgentTool (agentScope)`);
  return [route.tag, ...(route.agentScope ? [AGENT_TOOL_TAG] : route.agentAction ? [AGENT_ACTION_TAG] : [])];
}

/** The schemes an operation accepts: its own, and the AgentToken scheme with its scope on AgentTool and AgentAction operations. */
function securityRequirements(route: DocumentedRoute): Record<string, string[]>[] {
  const scope = agentScopeOf(route);
  return [
    ...route.security.map((scheme) => ({ [scheme]: [] })),
    ...(scope ? [{ AgentToken: [scope] }] : []),
    ...(route.optionalSecurity || route.security.length === 0 ? [{}] : []),
  ];
}

/** GEN-422-001 as the adapter renders it: an item list, here one item on the first field the route validates (else a body that is not JSON). */
function validationExample(route: DocumentedRoute): AppError {
  const [part, schema] = route.body ? (["body", route.body] as const) : route.query ? (["query", route.query] as const) : (["path", route.params] as const);
  const field = Object.keys((schema as { properties?: object } | undefined)?.properties ?? {})[0];
  return field ? new AppError("GEN-422-001", { validation: [{ type: "missing", loc: [part, field], msg: "Field required", input: null, ctx: {} }] }) : jsonInvalid("Quoted object key or end of object '}' expected but reached end of input at position 1");
}

/** One ProblemDetail example per code, keyed by the code, rendered as this host renders it. */
type ProblemExamples = Record<string, { summary: string; value: ProblemDetail }>;

function problemExamples(route: DocumentedRoute, codes: ErrorCode[], context: ProblemContext): ProblemExamples {
  const examples: ProblemExamples = {};
  for (const code of codes) {
    const error = code === "GEN-422-001" ? validationExample(route) : new AppError(code);
    examples[code] = { summary: errorDefinition(code).title, value: renderProblem(error, context) };
  }
  return examples;
}

/** The status's text, then one line per code: `CODE` title: the catalogue's detail; then `rules`, what refuses a body with it. */
function errorDescription(status: number, codes: ErrorCode[], rules: string[] = []): string {
  const lines = codes.map((code) => `- \`${code}\` ${errorDefinition(code).title}: ${errorDefinition(code).detail}`);
  return [STATUS_TEXT[status] ?? "Error", "", ...lines, ...rules.flatMap((rule) => ["", rule])].join("\n");
}

/** How every listener reads a JSON body (lib/json-body.ts), told where a route answers each refusal. */
const MEDIA_TYPE_RULE =
  "A body must be sent as `application/json` in UTF-8: without a `Content-Type`, as another media type (`text/plain` included), or with a `charset` other than `utf-8` (any case, quoted or not) it is refused.";
const JSON_RULE =
  `A body must be one JSON value (RFC 8259) that starts without a byte order mark, is valid UTF-8, nests objects and arrays at most ${MAX_JSON_DEPTH} levels deep, ` +
  "names no key twice in one object with different values (parsers disagree on which one counts; the same value twice is read once) and has no `__proto__` or `constructor.prototype` key; otherwise it is refused";

/** The body rules by the status that refuses them on `route`: none for a GET; a route's `bodyError` tells them all; a webhook reads any media type. */
function bodyRules(route: DocumentedRoute): Map<number, string[]> {
  const rules = new Map<number, string[]>();
  if (route.method === "GET") return rules;
  if (route.bodyError) rules.set(errorDefinition(route.bodyError).status, [MEDIA_TYPE_RULE, `${JSON_RULE}, and \`${route.bodyError}\`'s detail says why.`]);
  else {
    const jsonInvalid = `${JSON_RULE}: \`GEN-422-001\` with one \`json_invalid\` item at \`["body"]\` whose \`ctx.error\` says why (and names a repeated key).`;
    if (route.rawBody) rules.set(422, [`${jsonInvalid} Any media type is read, but a \`charset\` other than \`utf-8\` is refused the same way.`]);
    else rules.set(415, [MEDIA_TYPE_RULE]).set(422, [jsonInvalid]);
  }
  return rules;
}

/** An operation's Response Object, or a reference to a shared one (components/responses). */
type Response = { description: string; content?: Record<string, { schema: Record<string, unknown>; examples?: ProblemExamples }>; headers?: Record<string, HeaderObject> };
type Operation = { operationId: string; responses: Record<string, Response | { $ref: string }> };

function operation(route: DocumentedRoute, problemContext: Omit<ProblemContext, "instance">) {
  const headers = [
    { name: "X-Timestamp-Format", in: "header", required: false, description: "Exactly `iso8601` (lower case) for ISO 8601 timestamps, `YYYY-MM-DDTHH:MM:SSZ` in UTC; any other value (`ISO8601` included) or none means epoch milliseconds, and is not rejected.", schema: { type: "string", examples: ["iso8601"] } },
    ...(route.security.some((scheme) => scheme.startsWith("Platform")) ? CREDENTIAL_HEADERS.map((h) => ({ ...h, in: "header", required: false, schema: { type: "string" } })) : []),
    ...(route.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ...(route.requestHeaders ?? []).map(({ schema, ...header }) => ({ ...header, in: "header", schema: schema ?? { type: "string" } })),
  ];
  const responses: Record<string, Response> = {};
  for (const [status, doc] of Object.entries(route.responses)) {
    responses[status] = { description: doc.description, ...(doc.schema && { content: { "application/json": { schema: jsonSchema(doc.schema) } } }) };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of routeErrorCodes(route)) {
    const status = errorDefinition(code).status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const rules = bodyRules(route);
  for (const [status, codes] of byStatus) {
    responses[status] = {
      description: errorDescription(status, codes, rules.get(status)),
      content: {
        "application/problem+json": { schema: jsonSchema(problemSchema(status)), examples: problemExamples(route, codes, { ...problemContext, instance: SHARED_INSTANCE }) },
      },
    };
  }
  for (const [status, response] of Object.entries(responses)) {
    const headers = responseHeaders(route, Number(status));
    if (Object.keys(headers).length > 0) response.headers = headers;
  }
  return {
    operationId: route.operationId,
    tags: routeTags(route),
    summary: route.summary,
    ...((route.description || agentScopeOf(route)) && { description: [route.description, agentToolNote(route)].filter(Boolean).join("\n\n") }),
    parameters: [...parameters(route.params, "path"), ...parameters(route.query, "query"), ...headers],
    ...(route.body && { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(route.body) } } } }),
    responses,
    security: securityRequirements(route),
  };
}

function webhookOperation(webhook: DocumentedWebhook) {
  return {
    operationId: webhook.operationId,
    tags: [webhook.tag],
    summary: webhook.summary,
    description: webhook.description,
    parameters: webhook.headers.map((header) => ({ ...header, in: "header" })),
    requestBody: { required: true, content: { "application/json": { schema: jsonSchema(webhook.body) } } },
    responses: Object.fromEntries(Object.entries(webhook.responses).map(([status, description]) => [status, { description }])),
    // the request is signed (its headers), not sent with a credential of a security scheme
    security: [],
  };
}

/** Every security scheme; a document declares those its operations use. */
const SECURITY_SCHEMES: Record<SecurityScheme, Record<string, string>> = {
  PlatformJwt: { type: "apiKey", in: "header", name: "x-platform-jwt", description: "JWT from provider_a, provider_b or sign-in with Ethereum" },
  PlatformPat: { type: "apiKey", in: "header", name: "x-platform-pat", description: "Personal access token (plat_pat_…)" },
  AgentToken: { type: "apiKey", in: "header", name: "x-platform-token", description: "Agent token (plat_agt_…, POST /v0/agent/tokens): AgentTool operations (reads) and AgentAction operations (writes) only; each names the scope it needs" },
  DashboardSession: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "Dashboard session token from a DASHBOARD_AUTH issuer; its sub must be a member of the organisation in the path" },
  ApiKey: { type: "http", scheme: "bearer", description: "Identity-service API key (idsvc_sk_… server partition, idsvc_pk_… public partition)" },
  PintToken: { type: "apiKey", in: "header", name: "x-platform-pint-token", description: "PINT JWT issued by POST /v0/idsvc/token/pint" },
};

/** The trace id shown in error examples (answers carry the request's own, also in `x-request-id`). */
const EXAMPLE_TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

/**
 * The document's server: the public URL's path, relative to where the document was read. "Try it
 * out" then calls the host /docs was opened on (127.0.0.1 or localhost, or a proxy's name, under
 * the public URL's path prefix), the same origin, where an absolute PUBLIC_BASE_URL of another
 * host name was a cross-origin request.
 */
export function documentServer(serverUrl: string): { url: string; description: string } {
  return { url: new URL(serverUrl).pathname.replace(/\/+$/, "") || "/", description: "This host: the address the document was read from" };
}

/** Header names as the description lists them: `A`, `B` and `C`. */
const names = (headers: readonly string[]) => headers.map((name) => `\`${name}\``).join(", ").replace(/, ([^,]*)$/, " and $1");

/** How a browser page of another origin calls the host (lib/cors.ts), for the document's description. */
export function corsDescription(origins: readonly string[]): string {
  const allowed = origins.length > 0 ? `this deployment allows ${origins.map((origin) => `\`${origin}\``).join(", ")}` : "this deployment allows none";
  return (
    `Browsers: this host's own pages (\`/docs\`) need no CORS. A page of another origin may call it when \`CORS_ORIGINS\` lists that origin (${allowed}): ` +
    "a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) of a documented path is answered 204 without any credential, allowing the path's methods, " +
    `the host's credential headers, ${names(CORS_REQUEST_HEADERS)}, for two hours; ` +
    `every answer to a listed origin carries \`Access-Control-Allow-Origin\` with that origin and exposes ${names(CORS_RESPONSE_HEADERS)}. ` +
    "Credentials are headers, never cookies, so no answer allows credentials. A request without `Origin` is answered exactly as without CORS."
  );
}

/** The `instance` of the examples of a response several operations share: the path of whichever request was refused. */
const SHARED_INSTANCE = "{path}";

/** The response with its problem examples' `instance` set to `instance`, the original untouched. */
function withInstance(response: Response, instance: string): Response {
  const examples = response.content?.["application/problem+json"]?.examples;
  if (!examples) return response;
  const copy = structuredClone(response);
  for (const example of Object.values(copy.content!["application/problem+json"]!.examples!)) example.value.instance = instance;
  return copy;
}

/**
 * Error responses that several operations answer alike (description, schema, headers and
 * examples the same, the examples' `instance` apart) are written once under
 * `components/responses` and referenced: repeated per operation, the same 401, 429 and 5xx
 * answers were most of a document's bytes. One is named by its codes (`USR-401-001_USR-401-002`),
 * and a second response with the same codes by the first operation answering it too. A response
 * only one operation answers stays inline, its examples' `instance` the operation's path.
 */
function shareErrorResponses(paths: Record<string, Record<string, Operation>>): Record<string, Response> {
  const answers = new Map<string, { response: Response; uses: { path: string; operation: Operation; status: string }[] }>();
  for (const [path, methods] of Object.entries(paths)) {
    for (const operation of Object.values(methods)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!("description" in response) || !response.content?.["application/problem+json"]?.examples) continue;
        const key = JSON.stringify(response);
        const answer = answers.get(key) ?? { response, uses: [] };
        answer.uses.push({ path, operation, status });
        answers.set(key, answer);
      }
    }
  }
  const shared: Record<string, Response> = {};
  for (const { response, uses } of answers.values()) {
    if (uses.length === 1) {
      const [{ path, operation, status }] = uses as [(typeof uses)[0]];
      operation.responses[status] = withInstance(response, path);
      continue;
    }
    const codes = Object.keys(response.content!["application/problem+json"]!.examples!).join("_");
    const name = codes in shared ? `${codes}.${uses[0]!.operation.operationId}` : codes;
    shared[name] = response;
    for (const { operation, status } of uses) operation.responses[status] = { $ref: `#/components/responses/${name}` };
  }
  return shared;
}

type Schema = { [key: string]: unknown };

/**
 * A union with a `discriminator` lists its object types inline (TypeBox, titled by their GraphQL
 * names), where a discriminator can only select named schemas: each member becomes a component
 * under its title, the union refers to them, and the discriminator maps each member's value of
 * the property to it. Every member must answer the property as a required constant.
 */
function nameDiscriminatedMembers(node: unknown, schemas: Record<string, unknown>): void {
  if (Array.isArray(node)) return node.forEach((item) => nameDiscriminatedMembers(item, schemas));
  if (typeof node !== "object" || node === null) return;
  for (const value of Object.values(node)) nameDiscriminatedMembers(value, schemas);
  const schema = node as Schema;
  const discriminator = schema.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined;
  const union = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (!discriminator || !union || discriminator.mapping) return;
  const mapping: Record<string, string> = {};
  union.forEach((member, index) => {
    const name = member.title as string | undefined;
    const value = (member.properties as Record<string, Schema> | undefined)?.[discriminator.propertyName]?.const;
    if (!name || typeof value !== "string" || !(member.required as string[] | undefined)?.includes(discriminator.propertyName)) {
      throw new Error(`a member of a union discriminated by ${discriminator.propertyName} needs a title and a required constant ${discriminator.propertyName}`);
    }
    if (name in schemas && JSON.stringify(schemas[name]) !== JSON.stringify(member)) throw new Error(`two components are named ${name}`);
    schemas[name] = member;
    mapping[value] = `#/components/schemas/${name}`;
    union[index] = { $ref: mapping[value] };
  });
  discriminator.mapping = mapping;
}

/** The API's terms, in every document's `info`: the project grants no licence (SPDX has no id for that, hence a LicenseRef). */
const LICENSE = { name: "Proprietary", identifier: "LicenseRef-Proprietary" };

/** The OpenAPI 3.1 document, generated from the same route tables that serve and validate. */
export function buildOpenApiDocument(options: OpenApiOptions): Record<string, unknown> {
  const paths: Record<string, Record<string, Operation>> = {};
  const problemContext = { trace_id: EXAMPLE_TRACE_ID, base_url: options.serverUrl, docs_url: options.docsUrl ?? options.serverUrl, style: options.errorStyle ?? "platform" } as const;
  for (const route of options.routes) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route, problemContext);
  const responses = shareErrorResponses(paths);
  const used = new Set(options.routes.flatMap((r): SecurityScheme[] => (agentScopeOf(r) ? [...r.security, "AgentToken"] : r.security)));
  const schemas: Record<string, unknown> = {};
  for (const component of [...COMPONENTS, ...(options.schemas ?? [])]) {
    const { $id, ...schema } = jsonSchema(component);
    const name = $id as string;
    // a payload titled like a resource would silently replace its component
    if (name in schemas) throw new Error(`two components are named ${name}`);
    schemas[name] = schema;
  }
  const webhooks = options.webhooks?.length ? Object.fromEntries(options.webhooks.map((webhook) => [webhook.name, { post: webhookOperation(webhook) }])) : undefined;
  for (const part of [paths, responses, webhooks, Object.values(schemas)]) nameDiscriminatedMembers(part, schemas);
  const tags = [...new Set([...(options.tags ?? []), ...options.routes.flatMap(routeTags), ...(options.webhooks ?? []).map((webhook) => webhook.tag)])];
  const covers = `Operations by tag: ${tags.join(", ").replace(/, ([^,]*)$/, " and $1")}.`;
  return {
    openapi: "3.1.0",
    info: { title: options.title, version: SPEC_VERSION, description: [options.description, covers, ...(options.notes ?? [])].join("\n\n"), license: LICENSE },
    servers: [documentServer(options.serverUrl)],
    tags: tags.map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] && { description: TAG_DESCRIPTIONS[name] }) })),
    paths,
    ...(webhooks && { webhooks }),
    components: {
      schemas,
      ...(Object.keys(responses).length > 0 && { responses }),
      securitySchemes: Object.fromEntries(Object.entries(SECURITY_SCHEMES).filter(([name]) => used.has(name as SecurityScheme))),
    },
  };
}
