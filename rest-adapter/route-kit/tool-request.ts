import type { TSchema } from "@sinclair/typebox";
import type { ValidateFunction } from "ajv";
import FindMyWay from "find-my-way";
import { AppError, type ValidationItem } from "../../lib/errors/app-error.ts";
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN } from "../../lib/idempotency.ts";
import { compileValidator, nulCharacterItems, validationItems, type RequestPart } from "../../lib/json-validation.ts";
import type { HttpMethod, Route } from "./route.ts";

/** What a tool needs of its route: where it goes and the schemas its arguments must meet. */
export type ToolRoute = Pick<Route, "operationId" | "method" | "path" | "params" | "query" | "body" | "validateBody" | "prepareQuery">;

/**
 * What a request is built for: the route and the name refusals carry; a write (`access`) also
 * takes an `idempotency_key`, and `resolve` is the route table the built request must land in
 * (default: the route alone).
 */
export interface RequestTarget {
  name: string;
  route: ToolRoute;
  access?: "read" | "write";
  resolve?: (method: HttpMethod, path: string) => ToolRoute | undefined;
}

/** The HTTP request a tool call makes: the route's path with its parameters, its query string, for a write its JSON body and its Idempotency-Key. */
export interface ToolRequest {
  method: HttpMethod;
  url: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** The argument of write tools that becomes their `Idempotency-Key` header. */
export const IDEMPOTENCY_KEY_ARGUMENT = "idempotency_key";

/**
 * Arguments toolRequest refused before any request was made: GEN-422-001 with FastAPI-style items
 * (`loc` is `path`, `query`, `body` or `header` and the argument's name), so a caller answers it
 * as the REST route would have (the chat stores it as the tool result, MCP as a tool error).
 */
export class ToolArgumentError extends AppError {
  constructor(readonly tool: string, validation: ValidationItem[]) {
    super("GEN-422-001", { validation, detail: `Invalid arguments for ${tool}; nothing was sent.` });
    this.name = "ToolArgumentError";
  }
}

/** A schema's properties and required names, as plain JSON. */
export function properties(schema: TSchema | undefined): { properties: Record<string, unknown>; required: string[] } {
  if (!schema) return { properties: {}, required: [] };
  const plain = JSON.parse(JSON.stringify(schema)) as { properties?: Record<string, unknown>; required?: string[] };
  return { properties: plain.properties ?? {}, required: plain.required ?? [] };
}

/**
 * Which route a path lands on in `routes`, matched as the listener's router does (Fastify's
 * find-my-way, trailing slash ignored), so a request built for one tool cannot reach another.
 */
export function routeResolver(routes: readonly ToolRoute[]): (method: HttpMethod, path: string) => ToolRoute | undefined {
  const router = FindMyWay({ ignoreTrailingSlash: true });
  // Fastify's path syntax (app.ts fastifyPath, not imported: app.ts reaches this module through openapi.ts)
  for (const route of routes) router.on(route.method, route.path.replace(/\{(\w+)\}/g, ":$1"), () => {}, { route });
  return (method, path) => (router.find(method, path)?.store as { route: ToolRoute } | undefined)?.route;
}

/** The REST request of an AgentTool or AgentAction route's example, as /openapi.json shows it to models. */
export function exampleRequest(route: ToolRoute & Pick<Route, "agentExample">): ToolRequest {
  return toolRequest({ name: route.operationId, route }, route.agentExample ?? {});
}

/** Path parameters are single segments: nothing a URL resolves as a dot segment or splits into more. */
function segmentProblem(value: string): string | undefined {
  let decoded = value;
  // whatever percent-encoding layers it carries, as a server decoding it once, twice or more would read it
  for (let i = 0; i < 5 && /%[0-9a-f]{2}/i.test(decoded); i++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      break;
    }
  }
  if (decoded === "" || decoded === "." || decoded === "..") return "Value error, a path parameter is one non-empty segment, not . or ..";
  if (/[/\\]/.test(decoded)) return "Value error, a path parameter is one segment: no / or \\, encoded or not";
  return undefined;
}

const validators = new WeakMap<ToolRoute, Partial<Record<RequestPart, ValidateFunction>>>();

/** The route's own validators (compiled on first use, as the route kit compiles its own). */
function routeValidators(route: ToolRoute): Partial<Record<RequestPart, ValidateFunction>> {
  let compiled = validators.get(route);
  if (!compiled) {
    compiled = {};
    if (route.params) compiled.path = compileValidator(route.params, "path");
    if (route.query) compiled.query = compileValidator(route.query, "query");
    if (route.body && route.validateBody !== false) compiled.body = compileValidator(route.body, "body");
    validators.set(route, compiled);
  }
  return compiled;
}

/** The request's parts as the route will receive them, checked by the route's own schemas (on copies: the validators coerce and fill defaults). */
function validateParts(route: ToolRoute, parts: { path: Record<string, string>; query: Record<string, string | string[]>; body: Record<string, unknown> | undefined }): ValidationItem[] {
  const items: ValidationItem[] = [];
  const compiled = routeValidators(route);
  const check = (part: RequestPart, value: unknown) => {
    const validator = compiled[part];
    if (validator && !validator(value)) items.push(...validationItems(validator.errors ?? [], part, value));
  };
  check("path", structuredClone(parts.path));
  check("query", structuredClone(route.prepareQuery ? route.prepareQuery({ ...parts.query }) : parts.query));
  if (parts.body !== undefined) check("body", structuredClone(parts.body));
  for (const part of ["path", "query", "body"] as const) items.push(...nulCharacterItems(parts[part], part));
  return items;
}

/**
 * The request a call with `args` makes, checked before anything is sent: each path parameter is
 * one segment (not empty, `.` or `..`, no `/` or `\`, raw or percent-encoded in any case); path,
 * query and body meet the route's own schemas as the route will receive them; a write's
 * `idempotency_key` (optional here, required by MCP) is a valid Idempotency-Key; and the URL
 * built resolves, in the route table the tool came from, to the tool's own route. Otherwise it
 * throws a ToolArgumentError (GEN-422-001). Arguments that are not the route's own are dropped.
 */
export function toolRequest(tool: RequestTarget, args: Record<string, unknown>): ToolRequest {
  const { route } = tool;
  const items: ValidationItem[] = [];
  const pathNames = new Set<string>();
  const pathValues: Record<string, string> = {};
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    pathNames.add(name);
    const value = args[name];
    if (value === undefined || value === null) {
      items.push({ type: "missing", loc: ["path", name], msg: "Field required", input: null, ctx: {} });
      return "_";
    }
    const text = typeof value === "object" ? JSON.stringify(value) : String(value);
    const problem = segmentProblem(text);
    if (problem) items.push({ type: "value_error", loc: ["path", name], msg: problem, input: value, ctx: {} });
    pathValues[name] = text;
    return encodeURIComponent(text);
  });
  const queryNames = Object.keys(properties(route.query).properties).filter((name) => !pathNames.has(name));
  const query: Record<string, string | string[]> = {};
  const search = new URLSearchParams();
  for (const name of queryNames) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    const texts = (Array.isArray(value) ? value : [value]).map((item) => (typeof item === "object" && item !== null ? JSON.stringify(item) : String(item)));
    query[name] = Array.isArray(value) ? texts : texts[0]!;
    for (const text of texts) search.append(name, text);
  }
  const bodyNames = Object.keys(properties(route.body).properties).filter((name) => !pathNames.has(name) && !queryNames.includes(name));
  const body = route.body && route.method !== "GET" ? (JSON.parse(JSON.stringify(Object.fromEntries(bodyNames.filter((name) => args[name] !== undefined).map((name) => [name, args[name]])))) as Record<string, unknown>) : undefined;
  // a parameter refused above is not reported again by its schema
  const flagged = new Set(items.map((item) => item.loc[1]));
  items.push(...validateParts(route, { path: pathValues, query, body }).filter((item) => !(item.loc[0] === "path" && flagged.has(item.loc[1]))));

  const key = tool.access === "write" ? args[IDEMPOTENCY_KEY_ARGUMENT] : undefined;
  if (key !== undefined && (typeof key !== "string" || !new RegExp(IDEMPOTENCY_KEY_PATTERN).test(key)))
    items.push({ type: "string_pattern_mismatch", loc: ["header", "Idempotency-Key"], msg: `Input should be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters without spaces`, input: key, ctx: { pattern: IDEMPOTENCY_KEY_PATTERN } });
  if (items.length > 0) throw new ToolArgumentError(tool.name, items);

  // where the URL lands once a client or server normalises it, and which route serves it there
  const normalised = new URL(path, "http://tool.invalid").pathname;
  const resolved = (tool.resolve ?? routeResolver([route]))(route.method, normalised);
  if (normalised !== path || resolved !== route)
    throw new ToolArgumentError(tool.name, [{ type: "value_error", loc: ["path"], msg: `Value error, the arguments make ${route.method} ${normalised}, which is not ${route.method} ${route.path}`, input: path, ctx: {} }]);

  const queryString = search.toString();
  return {
    method: route.method,
    url: queryString ? `${path}?${queryString}` : path,
    ...(body !== undefined && { body }),
    ...(typeof key === "string" && { headers: { "idempotency-key": key } }),
  };
}
