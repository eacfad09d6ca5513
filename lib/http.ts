import cluster from "node:cluster";
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import helmet from "helmet";
import underPressure from "@fastify/under-pressure";
import { reportListening } from "./cluster-worker.ts";
import { AppError, DEFAULT_RETRY_AFTER_SECONDS } from "./errors/app-error.ts";
import { acceptJsonBodies } from "./json-body.ts";
import { metricsEnabled, recordHttpRequest } from "./metrics.ts";
import { startRequestSpan, traceRequests, tracingEnabled } from "./tracing.ts";
import type { Logger } from "./logger.ts";
import { fastifyTrustProxy, type TrustProxy } from "./trust-proxy.ts";
import { traceIdFrom } from "./trace.ts";

/** How every listener treats slow clients and overload (config: HTTP_*, LOAD_SHED_*). */
export interface HttpSettings {
  /** a request (headers and body) must arrive within this; then 408 and the socket closes */
  requestTimeoutMs: number;
  /** an idle keep-alive connection is closed after this; above a load balancer's idle timeout */
  keepAliveTimeoutMs: number;
  /** requests are refused with 503 GEN-503-002 while the event loop lags more than this (0: never) */
  maxEventLoopDelayMs: number;
  /** how often the lag is sampled */
  loadSampleIntervalMs: number;
  /** the Retry-After of a shed request */
  loadShedRetryAfterSeconds: number;
}

export const DEFAULT_HTTP_SETTINGS: HttpSettings = {
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 72_000,
  maxEventLoopDelayMs: 1_000,
  loadSampleIntervalMs: 1_000,
  loadShedRetryAfterSeconds: 5,
};

/**
 * Helmet's headers for a JSON API whose only pages are /docs and the GraphQL IDE: `default-src
 * 'self'`, scripts from this origin only, inline styles (Swagger UI sets them), fonts inlined as
 * data: URLs (GraphiQL's stylesheet carries its fonts so), "try it out" to `publicUrl`, no framing.
 * Helmet computes them once here; every answer then gets the same set in one call, where running
 * helmet's middleware per request cost 1.5 % of a request's CPU.
 */
function helmetHeaders(publicUrl: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'", ...(publicUrl ? [new URL(publicUrl).origin] : [])],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  middleware({} as never, response as never, () => {});
  return headers;
}

/**
 * Answers a path that is not valid percent-encoding in a part of the listener with its own error
 * shape, and returns true; false leaves it to the listener's 404 ProblemDetail.
 */
export type BadUrlAnswer = (request: FastifyRequest, reply: FastifyReply) => boolean;

/** More than Node's 16 KiB of headers can hold, so the router never refuses a parameter for its length. */
const MAX_PARAM_LENGTH = 16_384;

/** The listener default; a route may lower or raise its own (Route.bodyLimit). */
const DEFAULT_BODY_LIMIT = 1_048_576;

/** One JSON line per request, with trace id, status and duration, instead of Fastify's two. */
class RequestLog extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(_error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    request.log.info(
      { trace_id: request.id, method: request.method, path: request.url.split("?")[0], status: reply.statusCode, duration_ms: Math.round(reply.elapsedTime * 100) / 100 },
      "request",
    );
  }
}

/**
 * A Fastify instance as every listener of ours wants it: request ids are trace ids, one log line
 * per request, security headers (helmet's, computed once: see helmetHeaders), timeouts for slow clients, and load shedding: while the event loop lags, a
 * request is refused at once with 503 and Retry-After (an AppError, so each listener answers it
 * in its own error shape) instead of joining an unbounded queue. JSON bodies are read by our
 * rules (lib/json-body.ts: media type, charset, depth, duplicate keys). `trustProxy` (TRUST_PROXY,
 * public listeners only): whose X-Forwarded-For makes `request.ip`. `publicUrl`: where the
 * listener's /docs may send "try it out" requests. `name`: the listener's label in the metrics
 * (requests are counted when METRICS_PORT turned metrics on before the listener was built).
 */
export function createHttpServer(
  logger: Logger,
  options: { bodyLimit?: number; trustProxy?: TrustProxy; http?: HttpSettings; publicUrl?: string; name?: string; answerBadUrl?: BadUrlAnswer } = {},
): FastifyInstance {
  const settings = options.http ?? DEFAULT_HTTP_SETTINGS;
  const app: FastifyInstance = Fastify({
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    loggerInstance: logger as FastifyBaseLogger,
    logController: new RequestLog(),
    // with tracing on, the request's server span starts here and its trace id is the request's id
    genReqId: (req) => startRequestSpan(req) ?? traceIdFrom(req.headers),
    requestIdHeader: false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    requestTimeout: settings.requestTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    // Node checks request timeouts only every connectionsCheckingInterval (30 s by default), and
    // the headers' own timeout must not outlast the request's
    http: {
      connectionsCheckingInterval: Math.max(100, Math.min(5_000, Math.floor(settings.requestTimeoutMs / 2) || 5_000)),
      ...(settings.requestTimeoutMs > 0 && { headersTimeout: Math.min(60_000, settings.requestTimeoutMs) }),
    },
    // a path parameter of any length reaches its route, whose schema refuses it like any bad id
    // (the router's own refusal would be a bare 414 in Fastify's error shape)
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // refused by our own hook below instead, in the listener's error shape
    return503OnClosing: false,
    // a path that is not valid percent-encoding names no resource: the listener's own 404
    // (Fastify hands these to its default handler otherwise, outside the listener's error shape)
    frameworkErrors: (error, request, reply) =>
      options.answerBadUrl?.(request, reply) || app.errorHandler(new AppError("GEN-404-001", { detail: "The path is not a valid URL.", cause: error }), request, reply),
  });
  acceptJsonBodies(app);
  const securityHeaders = helmetHeaders(options.publicUrl);
  // while closing, in-flight requests finish; a new one on a kept-alive connection is refused at once
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    // a connection kept alive after its last answer would hold the close up until the keep-alive timeout
    const sweep = setInterval(() => app.server.closeIdleConnections(), 100).unref();
    app.server.once("close", () => clearInterval(sweep));
    done();
  });
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(securityHeaders);
    if (!closing) return done();
    reply.header("connection", "close");
    done(new AppError("GEN-503-003", { retryAfter: 1 }));
  });
  // every 503 of every listener says when to retry, whichever route or error shape answered it
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (reply.statusCode === 503 && !reply.hasHeader("retry-after")) reply.header("retry-after", String(DEFAULT_RETRY_AFTER_SECONDS));
    done(null, payload);
  });
  const listener = options.name;
  if (tracingEnabled()) traceRequests(app, listener ?? "http");
  if (listener && metricsEnabled()) {
    app.addHook("onResponse", (request, reply, done) => {
      recordHttpRequest(listener, request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
  if (settings.maxEventLoopDelayMs > 0) {
    app.register(underPressure, {
      maxEventLoopDelay: settings.maxEventLoopDelayMs,
      sampleInterval: settings.loadSampleIntervalMs,
      pressureHandler: (request) => {
        request.log.warn({ trace_id: request.id }, "load shed: the event loop lags");
        return Promise.reject(new AppError("GEN-503-002", { retryAfter: settings.loadShedRetryAfterSeconds }));
      },
    });
  }
  return app;
}

/**
 * Starts a listener and announces it in one log line naming the listener and its URL (Fastify's
 * own "Server listening" line is what carries it). Returns the URL, with the port actually bound.
 */
export async function listen(app: FastifyInstance, options: { name: string; port: number; host: string; path?: string }): Promise<string> {
  const path = options.path ?? "";
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  const text = (port: string | number) => `${options.name} listening on http://${host}:${port}${path}`;
  // a worker of several (WORKERS > 1) hands its line to the primary, which logs it once for all
  const level = app.log.level;
  if (cluster.isWorker) app.log.level = "warn";
  try {
    await app.listen({ port: options.port, host: options.host, listenTextResolver: (address) => text(new URL(address).port) });
  } finally {
    app.log.level = level;
  }
  const bound = app.server.address();
  const port = typeof bound === "object" && bound ? bound.port : options.port;
  reportListening(text(port));
  return `http://${host}:${port}${path}`;
}
