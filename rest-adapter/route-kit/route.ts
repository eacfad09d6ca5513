import type { Static, TSchema } from "@sinclair/typebox";
import type { AgentReadScope, AgentWriteScope } from "../../lib/graphql/agent-tag.ts";
import type { AgentTokenScope } from "../../lib/vocabulary/agents.ts";
import { errorDefinition, type ErrorCode } from "../../lib/errors/catalogue.ts";
import type { GatewayClient } from "./gateway-client.ts";
import type { InListenerCaller } from "./in-listener.ts";
import type { Links } from "./links.ts";
import type { OperationData } from "../resources/resources.generated.ts";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * Security schemes: the platform's JWT and personal access token (spec 5.1.10), the identity
 * host's dashboard session and API key (Bearer, spec 5.2) and PINT JWT. An operation listing
 * several accepts any of them.
 */
export type SecurityScheme = "PlatformJwt" | "PlatformPat" | "AgentToken" | "DashboardSession" | "ApiKey" | "PintToken";

/** The spec's tag of the read-oriented operations meant for AI agents (spec 1): GETs only. */
export const AGENT_TOOL_TAG = "AgentTool";
/** Ours: the writes an agent token holding a write scope may make, apart from the AgentTool reads. */
export const AGENT_ACTION_TAG = "AgentAction";

export interface RouteRequest<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  headers: Record<string, string | string[] | undefined>;
}

export interface LinkContext<P, Q, B> extends RouteRequest<P, Q, B> {
  base_url: string;
  /** the other public URLs links may point at ({rpc_url}, {docs_url}) */
  rpc_url: string;
  docs_url: string;
}

/**
 * A request header the route's own code reads (a webhook's signature headers), documented as a
 * header parameter so generated clients type it. Documentation only: no validation refuses a
 * request for it, the code reading it answers as its description says.
 */
export interface RequestHeaderDoc {
  name: string;
  required: boolean;
  description: string;
  /** JSON Schema of the value; default a string */
  schema?: Record<string, unknown>;
}

export interface ResponseDoc {
  description: string;
  /** the body schema; ProblemDetail for error statuses is added by the document generator */
  schema?: TSchema;
}

/** The operationIds `npm run generate:operations` has typed (rest-adapter/resources/resources.generated.ts). */
export type OperationId = keyof OperationData;

/**
 * What every route declares, however it answers: method, path (OpenAPI style), schemas, security,
 * responses and errors. Validation, body limits, rate-limit counting, the OpenAPI document and the
 * check of answers (tests) all come from it.
 */
export interface RouteTable<P extends TSchema = TSchema, Q extends TSchema = TSchema, B extends TSchema = TSchema> {
  operationId: string;
  method: HttpMethod;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** empty: no credential needed */
  security: SecurityScheme[];
  /**
   * An AgentTool operation, a GET (spec 1: AgentTool is read-oriented; the document refuses
   * anything else): agent tokens (`x-platform-token`) holding this read scope may call it; it is
   * documented under the AgentTool tag too, with the AgentToken scheme. The gateway decides from
   * the GraphQL fields' declarations (gateway/agent-access.ts); a test holds this table to them.
   */
  agentScope?: AgentReadScope;
  /**
   * An AgentAction operation: a write (never a GET) agent tokens holding this write scope may
   * make, documented under the AgentAction tag with the AgentToken scheme and offered as an MCP
   * tool only to such tokens. Its GraphQL field is an `@AgentAction`.
   * A route with neither this nor `agentScope` refuses agent tokens (403 AGT-403-002).
   */
  agentAction?: AgentWriteScope;
  /**
   * The path, query and body parameters of a typical call, shown to models (AgentTool and
   * AgentAction routes): in the operation's description in /openapi.json and in its MCP tool's.
   * A test validates each.
   */
  agentExample?: Record<string, unknown>;
  /** also accepted without a credential (GET /v0/cli/config answers deployment defaults) */
  optionalSecurity?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * false: `body` documents the request only and the operation validates it itself, with its own
   * error codes (the PINT exchange answers PINT-400-001, not 422); the raw JSON body is passed on.
   */
  validateBody?: boolean;
  /**
   * The catalogue code for a body the HTTP layer refuses (not JSON, wrong content type, empty, too
   * large); unset: the generic 422/415/413. The PINT exchange keeps its own shape (PINT-400-001).
   */
  bodyError?: ErrorCode;
  /**
   * The catalogue code of a 429 on this route, whichever limit refused it (per address, per key,
   * failed verifications); unset: GEN-429-001. The PINT exchange answers PINT-429-001 (spec 7.3).
   */
  rateLimitError?: ErrorCode;
  /** bytes; unset: DEFAULT_ROUTE_BODY_LIMIT */
  bodyLimit?: number;
  /** normalises the raw query before validation (e.g. comma-separated lists) */
  prepareQuery?: (query: Record<string, unknown>) => Record<string, unknown>;
  /**
   * A money-moving POST: the adapter reads the optional `Idempotency-Key` header (format checked,
   * GEN-422-001 at header.Idempotency-Key), passes it as the operation's `$idempotency_key: String`
   * variable (start-up fails when the operation does not declare it), and documents it; the
   * resolver stores the first response per user and key (subgraphs/finance/idempotency/).
   */
  idempotent?: boolean;
  /** documented success responses by status */
  responses: Record<number, ResponseDoc>;
  /** request headers the route reads besides the credential headers, X-Timestamp-Format and Idempotency-Key (`idempotent`) */
  requestHeaders?: RequestHeaderDoc[];
  /**
   * Response headers sent with every answer of the route, errors included, and documented on each
   * response (lower-case names): `cache-control: no-store` where the body carries secrets.
   */
  headers?: Record<string, string>;
  /**
   * The catalogue codes this route's own operation answers (read off its resolvers and domain
   * functions). Not the codes every route of its kind answers: `routeErrorCodes` adds those.
   */
  errors: ErrorCode[];
}

/**
 * A REST route as data: its table, the GraphQL operation it runs and how the result becomes the
 * HTTP answer. `D`: the operation's data; `R`: the response body `result` makes.
 */
export interface OperationRoute<P extends TSchema = TSchema, Q extends TSchema = TSchema, B extends TSchema = TSchema, D = unknown, R = unknown> extends RouteTable<P, Q, B> {
  /** the GraphQL operation, parsed once at start-up */
  operation: string;
  variables?: (request: RouteRequest<Static<P>, Static<Q>, Static<B>>) => Record<string, unknown>;
  /** picks the response body out of the operation's data */
  result: (data: D, request: RouteRequest<Static<P>, Static<Q>, Static<B>>) => R;
  status?: number | ((data: D) => number);
  /**
   * Resolvers may answer fields of the operation as JSON text (lib/json-text.ts), which the
   * answer then writes unparsed: `result`, `status` and `links` read no value a resolver may so
   * answer (the feed's `items`). Only for answers in epoch milliseconds (the text's format), in
   * this process (split mode's answers come parsed).
   */
  jsonText?: boolean;
  /** `body`: what `result` made */
  links?: (body: R, context: LinkContext<Static<P>, Static<Q>, Static<B>>) => Links;
}

/** What a composed route's handler is built with, once per listener on the route's first request. */
export interface Listener<S = unknown> {
  gateway: GatewayClient;
  /** {base_url} of this listener, for `_links` */
  base_url: string;
  /** what the host hands its composed routes (the platform: the chat assistant and the agent tools) */
  services: S;
}

/** Server-sent events, for a composed route that streams (`eventStream`). */
export interface EventStream {
  /** answers 200 `text/event-stream` from now on; the kit ends it with `event: done`, or `event: error` and the ProblemDetail when the handler throws */
  open(): void;
  /** one event, its data as JSON with timestamps in the caller's format */
  send(event: string, data: unknown): void;
}

/** A validated request as a composed route's handler gets it. */
export interface ComposedRequest<P, Q, B> extends RouteRequest<P, Q, B> {
  /** the caller's credential headers (this listener's), for the gateway */
  credentials: Record<string, string | string[] | undefined>;
  /** who asks, as the gateway records it: spread into each GatewayRequest */
  caller: { trace_id: string; client_address: string; user_agent?: string };
  /** another request of this listener, made as the caller: their credential, address and trace id, so that route's own checks and limits apply */
  inject: InListenerCaller;
  /** an `eventStream` route asked with `Accept: text/event-stream`: the stream it may answer on instead */
  events?: EventStream;
}

/**
 * A composed route's answer: a JSON body (the kit formats its timestamps), or another request's
 * answer passed on as it came (`raw`: its media type and bytes); none once it answered on its
 * event stream.
 */
export type ComposedAnswer = { status: number; body: unknown } | { status: number; raw: { type: string; payload: string } } | undefined;

/**
 * A route whose answer is composed of several calls (gateway operations, other routes of the
 * listener, a model): its table as any route's, and a handler instead of one operation. The
 * kit validates, limits, formats, documents and checks it as it does a table route.
 */
export interface ComposedRoute<P extends TSchema = TSchema, Q extends TSchema = TSchema, B extends TSchema = TSchema, S = unknown> extends RouteTable<P, Q, B> {
  /** builds the route's handler, once per listener (prepare its operations here) */
  handler: (listener: Listener<S>) => (request: ComposedRequest<Static<P>, Static<Q>, Static<B>>) => Promise<ComposedAnswer>;
  /** may answer `Accept: text/event-stream` as server-sent events (ComposedRequest.events) */
  eventStream?: boolean;
}

export type Route = OperationRoute | ComposedRoute;

export function isOperationRoute(route: Route): route is OperationRoute {
  return "operation" in route;
}

/** Routes under this tag (sandbox helpers) are served and documented only in sandbox mode (SANDBOX). */
export const SANDBOX_TAG = "Sandbox";

/**
 * Who counts a route's requests, in its Fastify `config.rateLimit`. Unset: this listener, per
 * client address, whatever headers come with it (credential-free routes, webhooks, documents,
 * 404s). "credential": the gateway's Authenticator when a credential header is sent (per user or
 * key once it verifies; a failure against `auth_failure`), else this listener per address.
 * "handler": the route's own handler (the RPC host, per key). "never": /health, which load
 * balancers poll, and the documents (/openapi.json, /docs, error pages), on every listener.
 */
export type RateLimitedBy = "credential" | "handler" | "never";

/** Every listener counts requests against its rate limits (429, see RateLimitedBy), except on /health, which load balancers poll. */
export function isRateLimited(route: Pick<Route, "path">): boolean {
  return route.path !== "/health";
}

/** The scope an agent token needs for the route (AgentTool or AgentAction), if agents may call it at all. */
export function agentScopeOf(route: Pick<Route, "agentScope" | "agentAction">): AgentTokenScope | undefined {
  return route.agentScope ?? route.agentAction;
}

/** What decides a route's error codes; `rawBody`: a webhook receiver, which reads any media type as raw bytes. */
export type RouteErrorFacts = Pick<Route, "method" | "path" | "security" | "agentScope" | "agentAction" | "agentExample" | "optionalSecurity" | "params" | "query" | "body" | "validateBody" | "bodyError" | "rateLimitError" | "idempotent" | "errors"> & {
  rawBody?: boolean;
};

/** The host whose credential headers a scheme arrives with. */
const SCHEME_HOST: Record<SecurityScheme, "platform" | "identity"> = {
  PlatformJwt: "platform",
  PlatformPat: "platform",
  AgentToken: "platform",
  DashboardSession: "identity",
  ApiKey: "identity",
  PintToken: "identity",
};

/** A route's JSON body: every documented body fits with room to spare (the largest, a SIWE smart-account signature, is 32 KiB of hex); webhooks keep the listener's 1 MiB. */
export const DEFAULT_ROUTE_BODY_LIMIT = 64 * 1024;

/**
 * The 401s of every credential a host reads (gateway/authenticate.ts). The authenticator verifies
 * whichever credential header arrives, not only those of the route's schemes, so a route answers
 * them all: platform: a bad JWT, `x-platform-orgid`, unknown environment, bad PAT, agent token;
 * identity: a bad or malformed Bearer API key, a bad dashboard session, a bad, expired or revoked PINT token.
 */
const CREDENTIAL_ERRORS: Record<"platform" | "identity", readonly ErrorCode[]> = {
  platform: ["USR-401-001", "USR-401-002", "USR-401-003", "USR-401-004", "USR-401-005"],
  identity: ["IDS-401-001", "IDS-401-002", "PINT-401-003", "PINT-401-004", "PINT-401-006"],
};

/** Any operation: an unexpected error, the gateway unreachable (split mode), a subgraph or store unavailable, load shed, shutting down. */
const GENERIC_FAILURES: readonly ErrorCode[] = ["GEN-500-001", "GEN-502-001", "GEN-503-001", "GEN-503-002", "GEN-503-003"];

/**
 * The codes every route of a kind answers, derived here and never listed per route:
 * - GEN-422-001 when the adapter validates path, query or body (a webhook: its envelope);
 * - a body refused before the route runs, on every method but GET (Fastify parses a body sent
 *   with DELETE too): `bodyError` when the route has one, a webhook's GEN-413-001 (it reads any
 *   media type), else GEN-413-001, GEN-415-001 and GEN-422-001 (not JSON, empty);
 * - where requests are counted (`isRateLimited`): the route's `rateLimitError`, else GEN-429-001;
 * - with a required credential: the 401s of its host's credentials (`CREDENTIAL_ERRORS`); an
 *   optional one answers none (a credential that fails counts as absent). A dashboard-only
 *   operation refuses an API key with IDS-403-002 (`requireDashboard`);
 * - a platform route with a credential: AGT-403-001 where agent tokens may call it (`agentScope`,
 *   `agentAction`) and one lacks the scope, else AGT-403-002 (agent tokens reach AgentTool and
 *   AgentAction operations only);
 * - an idempotent route: TXN-422-001, its Idempotency-Key reused with another request;
 * - GEN-500-001, GEN-502-001, GEN-503-001, GEN-503-002 (load shedding) and GEN-503-003 (shutting down) everywhere.
 * GEN-404-001 and GEN-405-001 belong to unknown paths and methods, not to routes.
 */
export function derivedErrorCodes(route: RouteErrorFacts): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (route.params || route.query || (route.body && route.validateBody !== false) || route.rawBody) codes.push("GEN-422-001");
  if (route.method !== "GET") {
    if (route.bodyError) codes.push(route.bodyError);
    else if (route.rawBody) codes.push("GEN-413-001");
    else codes.push("GEN-413-001", "GEN-415-001", "GEN-422-001");
  }
  if (isRateLimited(route)) codes.push(route.rateLimitError ?? "GEN-429-001");
  if (!route.optionalSecurity) for (const host of new Set(route.security.map((scheme) => SCHEME_HOST[scheme]))) codes.push(...CREDENTIAL_ERRORS[host]);
  if (route.security.length > 0 && route.security.every((scheme) => scheme === "DashboardSession")) codes.push("IDS-403-002");
  if (route.security.some((scheme) => SCHEME_HOST[scheme] === "platform")) codes.push(agentScopeOf(route) ? "AGT-403-001" : "AGT-403-002");
  if (route.idempotent) codes.push("TXN-422-001");
  codes.push(...GENERIC_FAILURES);
  return [...new Set(codes)];
}

/** Every code a route answers: its own (`errors`) and the derived ones, by status, then code. */
export function routeErrorCodes(route: RouteErrorFacts): ErrorCode[] {
  return [...new Set([...route.errors, ...derivedErrorCodes(route)])].sort((a, b) => errorDefinition(a).status - errorDefinition(b).status || a.localeCompare(b));
}

/** The error statuses a route answers, from the catalogue's status of each of its codes. */
export function errorStatuses(route: RouteErrorFacts): number[] {
  return [...new Set(routeErrorCodes(route).map((code) => errorDefinition(code).status))];
}

/**
 * Keeps each route's request types tied to its own schemas and its `result`, `status` and `links`
 * to its operation's data, looked up by operationId (a new route: run `npm run generate:operations`).
 */
export function defineRoute<Id extends OperationId, R, P extends TSchema = TSchema, Q extends TSchema = TSchema, B extends TSchema = TSchema>(
  route: OperationRoute<P, Q, B, OperationData[Id], R> & { operationId: Id },
): OperationRoute {
  return route as unknown as OperationRoute;
}

/** Keeps a composed route's handler typed by its own schemas and the services it declares (`Listener<S>`). */
export function defineComposedRoute<S, P extends TSchema = TSchema, Q extends TSchema = TSchema, B extends TSchema = TSchema>(route: ComposedRoute<P, Q, B, S>): Route {
  return route as unknown as Route;
}
