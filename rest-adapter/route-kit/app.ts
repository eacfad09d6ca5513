import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import FindMyWay from "find-my-way";
import type { ValidateFunction } from "ajv";
import { parse, type ExecutionResult } from "graphql";
import { hasAnyHeader } from "../../lib/auth/credential-headers.ts";
import { AppError, appError, isChosenRefusal, type ValidationItem } from "../../lib/errors/app-error.ts";
import { createHttpServer, type BadUrlAnswer, type HttpSettings } from "../../lib/http.ts";
import { IDEMPOTENCY_KEY_HEADER, requireIdempotencyKey } from "../../lib/idempotency.ts";
import type { TrustProxy } from "../../lib/trust-proxy.ts";
import type { Logger } from "../../lib/logger.ts";
import { limit, type RateLimits } from "../../lib/rate-limit/rate-limits.ts";
import type { GatewayClient, OperationHandle } from "./gateway-client.ts";
import type { PreparedOperation } from "../../gateway/gateway.ts";
import type { ErrorCode } from "../../lib/errors/catalogue.ts";
import { routeBodyError } from "./body-errors.ts";
import { registerDocumentation } from "./docs.ts";
import { errorFromGraphQL, fieldPartOf, type FieldPart } from "./graphql-errors.ts";
import { processHealthChecks } from "../routes/health.ts";
import { asAppError, renderProblem, type ProblemDetail } from "./problem.ts";
import { injectingCaller } from "./in-listener.ts";
import {
  DEFAULT_ROUTE_BODY_LIMIT,
  isOperationRoute,
  isRateLimited,
  type ComposedAnswer,
  type ComposedRequest,
  type ComposedRoute,
  type EventStream,
  type HttpMethod,
  type Listener,
  type OperationRoute,
  type RateLimitedBy,
  type Route,
  type RouteRequest,
} from "./route.ts";
import { answersInEpochMs, applyTimestampFormat, timestampFormat, type TimestampFormat } from "./timestamps.ts";
import { ResponseChecker, type ResponseMismatchReport } from "./response-check.ts";
import { jsonInvalid } from "../../lib/json-body.ts";
import { JsonTextAnswers, stringifyJsonBytes } from "../../lib/json-text.ts";
import { compileValidator, nulCharacterItems, validationItems, type RequestPart } from "../../lib/json-validation.ts";
import { CORS_EXPOSED_HEADERS, CORS_MAX_AGE_SECONDS, corsAllowedHeaders, corsOriginAllowed, type CorsOrigins } from "../../lib/cors.ts";

export interface HttpAppOptions {
  /** the listener's label in the metrics: platform, identity, rpc */
  name: string;
  routes: Route[];
  gateway: GatewayClient;
  logger: Logger;
  /** {base_url} of this listener, for `_links` and platform error `type` URIs */
  baseUrl: string;
  docsUrl: string;
  /** {rpc_url}, for links from the identity host to the RPC host */
  rpcUrl?: string;
  /** how generic errors look: platform (`{base_url}/errors/<code>`) or identity (`{docs_url}/errors/<type name>`) */
  errorStyle?: "platform" | "identity";
  /** credential headers this listener passes to the gateway; others are not credentials here */
  credentialHeaders: readonly string[];
  /** requests count per client address until a credential verifies (see RateLimitedBy) */
  rateLimits?: RateLimits;
  /** this listener's OpenAPI document: served with its reference page and the error pages (docs.ts) */
  document?: Record<string, unknown>;
  /** what the host hands its composed routes (Listener.services) */
  services?: unknown;
  /** extra plain routes registered by the caller */
  extra?: (app: FastifyInstance) => void;
  bodyLimit?: number;
  /** timeouts and load shedding (lib/http.ts) */
  http?: HttpSettings;
  /** a part of the listener with its own error shape answers its paths that are not valid percent-encoding (lib/http.ts) */
  answerBadUrl?: BadUrlAnswer;
  /** TRUST_PROXY: proxies whose X-Forwarded-For names the client */
  trustProxy?: TrustProxy;
  /** CORS_ORIGINS (lib/cors.ts): the web origins whose pages may call this listener; unset or empty, none */
  corsOrigins?: CorsOrigins;
  /** tests: each answer that differs from its route's documented responses is reported here; unset, nothing is checked */
  checkResponses?: ResponseMismatchReport;
  /** tests: every ProblemDetail this listener answers, so a suite can follow its `type` and `documentation` URIs */
  observeProblems?: (problem: ProblemDetail) => void;
}

/** Fastify's media type for an object it serialises, given to an answer written here as JSON text */
const JSON_TYPE = "application/json; charset=utf-8";

/** A route's own codes for refusals made outside it (see Route.bodyError, Route.rateLimitError). */
type RouteErrorCodes = { bodyError?: ErrorCode; rateLimitError?: ErrorCode };

/** A route's fixed response headers (Route.headers), set before anything can answer. */
type RouteHeaders = { headers?: Record<string, string> };

interface CompiledRoute {
  route: Route;
  /** a table route's operation; a composed route prepares its own (ComposedRoute.handler) */
  operation?: OperationHandle;
  validators: Partial<Record<RequestPart, ValidateFunction>>;
  /** the query parameters the route documents; others are ignored, never passed on */
  queryNames: ReadonlySet<string>;
  /** where the route took each input field a domain validation item names */
  fieldPart: FieldPart;
  /** a table route whose operation's data is already in epoch milliseconds, wherever the schema says it (answersInEpochMs) */
  answersInEpochMs: boolean;
}

/** Only the documented query parameters: routes hand their query to the operation as a filter, where an unknown name would fail the variable. */
function documentedQuery(query: Record<string, unknown>, names: ReadonlySet<string>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const name of Object.keys(query)) if (names.has(name)) kept[name] = query[name];
  return kept;
}

/** The headers of `names` a request carries (its credential headers, for the gateway). */
export function pick(headers: Record<string, string | string[] | undefined>, names: readonly string[]): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const name of names) if (headers[name] !== undefined) out[name] = headers[name];
  return out;
}

/** Fastify path syntax from the spec's `{name}` syntax. */
export function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

/** A table route's operation prepared against the public API, and any route's path, query and body validators. */
export function compileRoute(route: Route, gateway: GatewayClient): CompiledRoute {
  const validators: CompiledRoute["validators"] = {};
  if (route.params) validators.path = compileValidator(route.params, "path");
  if (route.query) validators.query = compileValidator(route.query, "query");
  if (route.body && route.validateBody !== false) validators.body = compileValidator(route.body, "body");
  const queryNames = new Set(Object.keys((route.query as { properties?: object } | undefined)?.properties ?? {}));
  const operation = isOperationRoute(route) ? gateway.prepare(route.operation) : undefined;
  const schema = gateway.schema?.();
  const epochMs = operation !== undefined && schema !== undefined && answersInEpochMs(schema, "document" in operation ? (operation as PreparedOperation).document : parse(operation.source));
  return { route, ...(operation && { operation }), validators, queryNames, fieldPart: fieldPartOf(route), answersInEpochMs: epochMs };
}

/**
 * compileRoute on the route's first request: parsing and validating ~160 operations and compiling
 * their JSON Schemas was a fifth of the start-up (issue 15). Every route is compiled before it
 * ships (test/integration/route-operations.test.ts), so this cannot fail at run time.
 */
function compiler(route: Route, gateway: GatewayClient): () => CompiledRoute {
  if (isOperationRoute(route) && route.idempotent && !/\$idempotency_key\s*:\s*String\b/.test(route.operation))
    throw new Error(`${route.operationId}: an idempotent route's operation declares $idempotency_key: String`);
  return once(() => compileRoute(route, gateway));
}

/** Validates every part and reports all failures at once, as FastAPI does. */
export function validate(validators: CompiledRoute["validators"], parts: Partial<Record<RequestPart, unknown>>): void {
  const items: ValidationItem[] = [];
  for (const part of ["path", "query", "body"] as const) {
    const validator = validators[part];
    if (!validator) continue;
    if (part === "body" && parts.body === undefined) {
      items.push({ type: "missing", loc: ["body"], msg: "Field required", input: null, ctx: {} });
      continue;
    }
    if (!validator(parts[part])) items.push(...validationItems(validator.errors ?? [], part, parts[part]));
  }
  for (const part of ["path", "query", "body"] as const) items.push(...nulCharacterItems(parts[part], part));
  if (items.length > 0) throw new AppError("GEN-422-001", { validation: items });
}

/** `body` is the operation's `data` or one of its fields, untouched by the route's `result` (which may build an answer of its own instead). */
function servedAsIs(body: unknown, data: ExecutionResult["data"]): boolean {
  if (data == null) return false;
  if (body === data) return true;
  for (const key in data) if (data[key] === body) return true;
  return false;
}

/** Fastify's own request errors (bad JSON, wrong media type, too large) in catalogue terms. */
function fromFastifyError(error: { code?: string; statusCode?: number; message: string }): AppError | undefined {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return jsonInvalid(error.message);
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return new AppError("GEN-422-001", { validation: [{ type: "missing", loc: ["body"], msg: "Field required", input: null, ctx: {} }] });
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return appError("GEN-415-001");
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return appError("GEN-413-001");
  }
  if (error.statusCode === 400 && /JSON/i.test(error.message))
    return jsonInvalid(error.message);
  return undefined;
}

/** A request past validation, as the caller made it. */
type Validated = RouteRequest<unknown, unknown, unknown> & Pick<ComposedRequest<unknown, unknown, unknown>, "credentials" | "caller"> & { format: TimestampFormat };

type ComposedHandle = ReturnType<ComposedRoute["handler"]>;

/** `make` once, on first use. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** Server-sent events on the raw response, opened by the route (EventStream.open) and ended by the kit. */
function eventStream(request: FastifyRequest, reply: FastifyReply, format: TimestampFormat): EventStream & { opened: boolean; end(event: string, data: unknown): void } {
  const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
  return {
    opened: false,
    open() {
      this.opened = true;
      reply.hijack();
      // the answer's CORS headers, set before the route ran, go on the raw response too
      const cors = Object.entries(reply.getHeaders()).filter(([name]) => name.startsWith("access-control-") || name === "vary");
      reply.raw.writeHead(200, { ...Object.fromEntries(cors), "content-type": "text/event-stream", "cache-control": "no-store", "x-request-id": request.id });
    },
    send: (event, data) => reply.raw.write(frame(event, applyTimestampFormat(data, format))),
    end: (event, data) => reply.raw.end(frame(event, data)),
  };
}

/**
 * A listener of the documented HTTP interface: every route of `routes` validated, run through
 * the gateway and shaped (status, `_links`, timestamps); every error a ProblemDetail with the
 * trace id; unknown paths 404 and wrong methods 405, also as ProblemDetails.
 */
export async function buildHttpApp(options: HttpAppOptions): Promise<FastifyInstance> {
  const app = createHttpServer(options.logger, {
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy,
    http: options.http,
    publicUrl: options.baseUrl,
    name: options.name,
    answerBadUrl: options.answerBadUrl,
  });

  // answers 405 (with Allow) for a path that exists under other methods; same trailing-slash rule as the router
  const known = FindMyWay({ ignoreTrailingSlash: true });
  const methodsAt = (path: string) => (["GET", "POST", "PATCH", "PUT", "DELETE"] as const).filter((m) => known.find(m, path) !== null);
  const corsOrigins = options.corsOrigins ?? [];
  const corsAllowHeaders = corsAllowedHeaders(options.credentialHeaders);
  const problemContext = (request: FastifyRequest) => ({
    instance: request.url.split("?")[0]!,
    trace_id: request.id,
    base_url: options.baseUrl,
    docs_url: options.docsUrl,
    style: options.errorStyle ?? "platform",
  });

  /** The failure's ProblemDetail, the server's own failures logged; the one path of every error this listener answers, streamed ones included. */
  const problemOf = (request: FastifyRequest, failure: AppError, error: unknown): ProblemDetail => {
    if (failure.status >= 500 && !isChosenRefusal(failure)) request.log.error({ err: failure.cause ?? error, trace_id: request.id }, "request failed");
    const problem = renderProblem(failure, problemContext(request));
    options.observeProblems?.(problem);
    return problem;
  };

  const sendProblem = (request: FastifyRequest, reply: FastifyReply, failure: AppError, error: unknown = failure) => {
    if (failure.retryAfter !== undefined) reply.header("retry-after", String(failure.retryAfter));
    return reply.code(failure.status).type("application/problem+json").send(problemOf(request, failure, error));
  };

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
    // CORS (lib/cors.ts): only a request with an Origin gets its headers, so other clients' answers stay as they were
    const origin = request.headers.origin;
    if (origin !== undefined && corsOrigins.length > 0) {
      reply.header("vary", "Origin");
      const allowed = corsOriginAllowed(corsOrigins, origin);
      if (allowed) reply.header("access-control-allow-origin", origin).header("access-control-expose-headers", CORS_EXPOSED_HEADERS);
      // a preflight of a documented path, answered before rate limits and credentials; an unknown path's stays a 404
      const methods = request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined ? methodsAt(request.url.split("?")[0]!) : [];
      if (methods.length > 0) {
        if (allowed)
          reply.headers({ "access-control-allow-methods": methods.join(", "), "access-control-allow-headers": corsAllowHeaders, "access-control-max-age": String(CORS_MAX_AGE_SECONDS) });
        return reply.code(204).send();
      }
    }
    const fixed = (request.routeOptions.config as RouteHeaders | undefined)?.headers;
    if (fixed) reply.headers(fixed);
    if (!options.rateLimits) return;
    const countedBy = (request.routeOptions.config as { rateLimit?: RateLimitedBy } | undefined)?.rateLimit;
    if (countedBy === "never" || countedBy === "handler") return;
    if (countedBy === "credential" && hasAnyHeader(request.headers, options.credentialHeaders)) return;
    await limit(options.rateLimits, `ip:${request.ip}`, "ip");
  });

  app.setErrorHandler((error, request, reply) => {
    const { bodyError, rateLimitError } = (request.routeOptions.config as RouteErrorCodes | undefined) ?? {};
    let appErr =
      error instanceof AppError ? error : ((bodyError && routeBodyError(bodyError, error as never)) || (fromFastifyError(error as never) ?? asAppError(error)));
    if (rateLimitError && appErr.code === "GEN-429-001") appErr = new AppError(rateLimitError, { retryAfter: appErr.retryAfter ?? 1 });
    return sendProblem(request, reply, appErr, error);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0]!;
    const allowed = methodsAt(path);
    if (allowed.length > 0) {
      reply.header("allow", allowed.join(", "));
      return sendProblem(request, reply, appError("GEN-405-001", `${request.method} is not allowed here; use ${allowed.join(", ")}.`));
    }
    return sendProblem(request, reply, appError("GEN-404-001", `No resource exists at ${path}.`));
  });

  /** A table route's answer: its operation run as the caller, the result shaped (status, `_links`, timestamps). */
  const answerOperation = async (route: OperationRoute, compiled: CompiledRoute, validated: Validated, request: FastifyRequest, reply: FastifyReply) => {
    const routeRequest = validated as never;
    const idempotencyKey = request.headers[IDEMPOTENCY_KEY_HEADER];
    // /health also answers for this process's own stores (routes/health.ts), checked beside the subgraphs' own
    const processChecks = route.path === "/health" ? processHealthChecks(options.rateLimits) : undefined;
    // JSON text is written as it is, unconverted: only where the answer keeps epoch milliseconds
    const jsonText = route.jsonText && validated.format === "epoch_ms" && compiled.answersInEpochMs ? new JsonTextAnswers() : undefined;
    const result = await options.gateway.execute({
      operation: compiled.operation!,
      variables: {
        ...route.variables?.(routeRequest),
        ...(route.idempotent && { idempotency_key: idempotencyKey === undefined ? null : requireIdempotencyKey(idempotencyKey, ["header", "Idempotency-Key"]) }),
      },
      headers: validated.credentials,
      credentials: route.security.length === 0 ? "none" : route.optionalSecurity ? "optional" : "required",
      ...validated.caller,
      ...(jsonText && { json_text: jsonText }),
    });
    if (result.errors?.length) throw errorFromGraphQL(result.errors, compiled.fieldPart);
    const status = typeof route.status === "function" ? route.status(result.data) : (route.status ?? 200);
    if (status === 204) return reply.code(204).send();
    const data = processChecks ? { ...result.data, process_checks: await processChecks } : result.data;
    let payload = route.result(data, routeRequest) as Record<string, unknown>;
    // the epoch-ms pass would give back what it got: the answer is the operation's data or one of its fields as the gateway served them, and the schema types each timestamp a number
    const asServed = validated.format === "epoch_ms" && compiled.answersInEpochMs && servedAsIs(payload, result.data);
    if (route.links) payload = { ...payload, _links: route.links(payload, { ...validated, base_url: options.baseUrl, rpc_url: options.rpcUrl ?? "", docs_url: options.docsUrl } as never) };
    if (jsonText?.used) return reply.code(status).type(JSON_TYPE).send(stringifyJsonBytes(payload));
    return reply.code(status).send(asServed ? payload : applyTimestampFormat(payload, validated.format));
  };

  /**
   * A composed route's answer: its handler gets the validated request as the caller (credential,
   * address, trace id, user agent), other requests of this listener made as the caller, and with
   * `eventStream` and `Accept: text/event-stream` the stream it may answer on instead.
   */
  const answerComposed = async (route: ComposedRoute, handle: ComposedHandle, validated: Validated, request: FastifyRequest, reply: FastifyReply) => {
    const events = route.eventStream && request.headers.accept?.includes("text/event-stream") ? eventStream(request, reply, validated.format) : undefined;
    let answer: ComposedAnswer;
    try {
      answer = await handle({ ...validated, inject: injectingCaller(app, validated.credentials, request), ...(events && { events }) });
    } catch (error) {
      if (!events?.opened) throw error;
      // the stream has begun: the failure is its last event
      events.end("error", problemOf(request, asAppError(error), error));
      return reply;
    }
    if (events?.opened) {
      events.end("done", {});
      return reply;
    }
    if (!answer) throw new Error(`${route.operationId}: no answer, and no event stream opened`);
    if ("raw" in answer) return reply.code(answer.status).type(answer.raw.type).send(answer.raw.payload);
    if (answer.status === 204) return reply.code(204).send();
    return reply.code(answer.status).send(applyTimestampFormat(answer.body, validated.format));
  };

  const checker = options.checkResponses && new ResponseChecker(options.checkResponses);
  const listener: Listener = { gateway: options.gateway, base_url: options.baseUrl, services: options.services };
  for (const route of options.routes) {
    const compiledRoute = compiler(route, options.gateway);
    const composedHandle = isOperationRoute(route) ? undefined : once(() => route.handler(listener));
    known.on(route.method, fastifyPath(route.path), () => {});
    app.route({
      method: route.method as HttpMethod,
      url: fastifyPath(route.path),
      config: {
        rateLimit: !isRateLimited(route) ? "never" : route.security.length > 0 ? "credential" : undefined,
        bodyError: route.bodyError,
        rateLimitError: route.rateLimitError,
        headers: route.headers,
      } satisfies { rateLimit?: RateLimitedBy } & RouteErrorCodes & RouteHeaders,
      bodyLimit: route.bodyLimit ?? DEFAULT_ROUTE_BODY_LIMIT,
      ...(checker && { onSend: checker.hook(route) }),
      handler: async (request, reply) => {
        const compiled = compiledRoute();
        const rawQuery = documentedQuery((request.query ?? {}) as Record<string, unknown>, compiled.queryNames);
        const query = route.prepareQuery ? route.prepareQuery({ ...rawQuery }) : { ...rawQuery };
        const params = { ...(request.params as Record<string, unknown>) };
        const body = request.body;
        validate(compiled.validators, { path: params, query, body, header: request.headers });
        const validated: Validated = {
          params,
          query,
          body,
          headers: request.headers,
          credentials: pick(request.headers, options.credentialHeaders),
          caller: { trace_id: request.id, client_address: request.ip, user_agent: request.headers["user-agent"] },
          format: timestampFormat(request.headers["x-timestamp-format"]),
        };
        return isOperationRoute(route) ? answerOperation(route, compiled, validated, request, reply) : answerComposed(route, composedHandle!(), validated, request, reply);
      },
    });
  }
  if (options.document) registerDocumentation(app, options.document);
  options.extra?.(app);
  return app;
}
