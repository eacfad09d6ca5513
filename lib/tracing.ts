import type { IncomingMessage } from "node:http";
import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from "@opentelemetry/api";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Logger } from "./logger.ts";

/**
 * OpenTelemetry tracing, on when OTEL_EXPORTER_OTLP_ENDPOINT is set: spans go to that OTLP/HTTP
 * collector (the standard OTEL_* variables tune the exporter). A span per HTTP request on every
 * listener, Apollo Gateway's own spans (planning, each subgraph fetch), Prisma's database spans,
 * and outgoing fetches, which carry `traceparent` so one trace crosses the adapter, the gateway
 * and the subgraphs in split mode. The SDK is loaded only when tracing is on: off, no span is
 * made and no hook is added.
 */
let tracer: Tracer | undefined;

export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

export interface Tracing {
  /** exports what is still buffered, then stops */
  shutdown(): Promise<void>;
}

export async function startTracing(options: { endpoint: string | undefined; serviceName: string; logger: Logger }): Promise<Tracing | undefined> {
  if (!options.endpoint) return undefined;
  const [{ NodeSDK }, { OTLPTraceExporter }, { UndiciInstrumentation }, { PrismaInstrumentation }] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/instrumentation-undici"),
    import("@prisma/instrumentation"),
  ]);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? options.serviceName,
    // the variable names the collector's base URL; traces go to its /v1/traces (OTLP/HTTP)
    traceExporter: new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, "")}/v1/traces` }),
    instrumentations: [new UndiciInstrumentation(), new PrismaInstrumentation()],
  });
  sdk.start();
  tracer = trace.getTracer("platform");
  options.logger.info({ endpoint: options.endpoint }, "tracing: spans are exported over OTLP/HTTP");
  return {
    async shutdown() {
      tracer = undefined;
      await sdk.shutdown().catch((error: unknown) => options.logger.warn({ err: error }, "tracing: the last spans could not be exported"));
    },
  };
}

/** Each request's server span and the context it runs in, from its arrival (genReqId) to its answer. */
const requestSpans = new WeakMap<IncomingMessage, { span: Span; context: Context }>();

/**
 * Starts the request's server span, continuing the caller's trace when `traceparent` names one,
 * and returns its trace id: with tracing on, that is the request's id (logs, `x-request-id`,
 * every ProblemDetail's `trace_id`). Undefined when tracing is off.
 */
export function startRequestSpan(request: IncomingMessage): string | undefined {
  if (!tracer) return undefined;
  const parent = propagation.extract(context.active(), request.headers);
  const span = tracer.startSpan(request.method ?? "HTTP", { kind: SpanKind.SERVER, attributes: { "http.request.method": request.method ?? "", "url.path": (request.url ?? "").split("?")[0] } }, parent);
  requestSpans.set(request, { span, context: trace.setSpan(parent, span) });
  return span.spanContext().traceId;
}

/**
 * Runs the listener's hooks and handler inside the request's span, names the span after the
 * route template, and ends it with the status. Re-entered before the handler: a body arrives on
 * stream events, which run outside the context the request started in.
 */
export function traceRequests(app: FastifyInstance, listener: string): void {
  const enter = (request: FastifyRequest, _reply: unknown, done: () => void) => {
    const entry = requestSpans.get(request.raw);
    if (!entry) return done();
    return context.with(entry.context, done);
  };
  app.addHook("onRequest", (request, reply, done) => {
    const entry = requestSpans.get(request.raw);
    if (entry) {
      const route = request.routeOptions.url;
      entry.span.updateName(`${request.method} ${route ?? "unmatched"}`);
      entry.span.setAttribute("platform.listener", listener);
      if (route) entry.span.setAttribute("http.route", route);
    }
    enter(request, reply, done);
  });
  app.addHook("preHandler", enter);
  app.addHook("onResponse", (request, reply, done) => {
    const entry = requestSpans.get(request.raw);
    if (entry) {
      entry.span.setAttribute("http.response.status_code", reply.statusCode);
      if (reply.statusCode >= 500) entry.span.setStatus({ code: SpanStatusCode.ERROR });
      entry.span.end();
      requestSpans.delete(request.raw);
    }
    done();
  });
}

/** Puts the active trace's `traceparent` on an outgoing request's headers (a fetch undici's instrumentation does not see). */
export function injectTraceContext(headers: Record<string, string>): void {
  if (tracer) propagation.inject(context.active(), headers);
}
