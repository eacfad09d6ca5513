import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { context, createContextKey, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from "@opentelemetry/api";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Logger } from "./logger.ts";

/**
 * OpenTelemetry tracing, on when OTEL_EXPORTER_OTLP_ENDPOINT is set: spans go to that OTLP/HTTP
 * collector (the standard OTEL_* variables tune the exporter). A span per HTTP request on every
 * listener, Apollo Gateway's own spans (planning, each subgraph fetch), Prisma's database spans,
 * and outgoing fetches, which carry `traceparent` so one trace crosses the adapter, the gateway
 * and the subgraphs in split mode. Background work (the job queues) is traced per run that finds
 * work (`BackgroundRun`); its polls are not. The SDK is loaded only when tracing is on: off, no
 * span is made and no hook is added.
 */
let tracer: Tracer | undefined;
/** @opentelemetry/core's, loaded with the SDK */
let suppression: { suppressTracing(context: Context): Context; isTracingSuppressed(context: Context): boolean } | undefined;

export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

export interface Tracing {
  /** exports what is still buffered, then stops */
  shutdown(): Promise<void>;
}

export async function startTracing(options: { endpoint: string | undefined; serviceName: string; logger: Logger }): Promise<Tracing | undefined> {
  if (!options.endpoint) return undefined;
  const [{ NodeSDK }, { OTLPTraceExporter }, { UndiciInstrumentation }, { PrismaInstrumentation }, core] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/instrumentation-undici"),
    import("@prisma/instrumentation"),
    import("@opentelemetry/core"),
  ]);
  suppression = core;
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
      suppression = undefined;
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

/** Not sampled: a callee continuing it records nothing (see `propagateUntraced`). */
function unsampledTraceparent(): string {
  const ids = randomBytes(24).toString("hex");
  return `00-${ids.slice(0, 32)}-${ids.slice(32)}-00`;
}

/**
 * A fetch made while tracing is suppressed (a poll) says so to the service it calls, with a
 * `traceparent` that is not sampled: undici's instrumentation sends none then, and the callee (a
 * peer in split mode) would start a root trace of its own for every poll.
 */
export function propagateUntraced(headers: Record<string, string>): void {
  if (tracer && suppression?.isTracingSuppressed(context.active())) headers.traceparent = unsampledTraceparent();
}

/** The background run `work` is part of, in the context it runs in. */
const RUN = createContextKey("platform background run");

/**
 * Runs `work` (a poll) with tracing suppressed, in no request's trace: it exports no span, and a
 * peer it asks over HTTP none either (`propagateUntraced`).
 */
export function untraced<T>(work: () => PromiseLike<T>): Promise<T> {
  return suppression ? context.with(suppression.suppressTracing(ROOT_CONTEXT), () => started(work)) : started(work);
}

/**
 * Runs `work` and waits for it, so that a lazy promise (Prisma's runs its query when first
 * awaited) starts in the context this is called in, not in the awaiting caller's.
 */
async function started<T>(work: () => PromiseLike<T>): Promise<T> {
  return await work();
}

/**
 * One run of background work (a job): a root span named `name`, made only once the run does work
 * (`work`), with the database calls and fetches of that work as its children. A run that only
 * looks for work (`look`: a standing job's pass that finds nothing) exports nothing.
 */
export class BackgroundRun {
  private span: Span | undefined;
  private runContext: Context | undefined;

  constructor(
    private readonly name: string,
    private readonly attributes: Attributes,
  ) {}

  /** Runs `work` in the run's span, starting it on the first call. */
  work<T>(work: () => PromiseLike<T>): Promise<T> {
    if (!tracer) return started(work);
    if (!this.runContext) {
      this.span = tracer.startSpan(this.name, { kind: SpanKind.INTERNAL, attributes: this.attributes, root: true }, ROOT_CONTEXT);
      this.runContext = trace.setSpan(ROOT_CONTEXT.setValue(RUN, this), this.span);
    }
    return context.with(this.runContext, () => started(work));
  }

  /** Runs `look` untraced; what it finds to do it runs through `tracedWork`, which starts the run's span. */
  look<T>(look: () => PromiseLike<T>): Promise<T> {
    return suppression ? context.with(suppression.suppressTracing(ROOT_CONTEXT).setValue(RUN, this), () => started(look)) : started(look);
  }

  /** Runs `step` (the run's bookkeeping) in the run's span if the run did work, untraced if it did not. */
  after<T>(step: () => PromiseLike<T>): Promise<T> {
    return this.runContext ? this.work(step) : this.look(step);
  }

  /** Ends the run's span, if it has one, with `attributes` and the error the run ended in. */
  end(attributes: Attributes, error?: unknown): void {
    if (!this.span) return;
    this.span.setAttributes(attributes);
    if (error !== undefined) {
      this.span.recordException(error instanceof Error ? error : String(error));
      this.span.setStatus({ code: SpanStatusCode.ERROR });
    }
    this.span.end();
  }
}

/**
 * Runs `work` as the work of the background run it is part of (see `BackgroundRun.look`): a
 * standing job calls it on what its pass found to do. Outside a run, or with tracing off, it
 * just runs `work`.
 */
export function tracedWork<T>(work: () => PromiseLike<T>): Promise<T> {
  const run = context.active().getValue(RUN) as BackgroundRun | undefined;
  return run ? run.work(work) : started(work);
}
