import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type { Logger } from "./logger.ts";
import { fastifyTrustProxy, type TrustProxy } from "./trust-proxy.ts";
import { traceIdFrom } from "./trace.ts";

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
 * per request. `trustProxy` (TRUST_PROXY, public listeners only): whose X-Forwarded-For makes `request.ip`.
 */
export function createHttpServer(logger: Logger, options: { bodyLimit?: number; trustProxy?: TrustProxy } = {}): FastifyInstance {
  return Fastify({
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    loggerInstance: logger as FastifyBaseLogger,
    logController: new RequestLog(),
    genReqId: (req) => traceIdFrom(req.headers),
    requestIdHeader: false,
    bodyLimit: options.bodyLimit ?? 1_048_576,
    routerOptions: { ignoreTrailingSlash: true },
  });
}

/**
 * Starts a listener and announces it in one log line naming the listener and its URL (Fastify's
 * own "Server listening" line is what carries it). Returns the URL, with the port actually bound.
 */
export async function listen(app: FastifyInstance, options: { name: string; port: number; host: string; path?: string }): Promise<string> {
  const path = options.path ?? "";
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  await app.listen({
    port: options.port,
    host: options.host,
    listenTextResolver: (address) => {
      const port = new URL(address).port;
      return `${options.name} listening on http://${host}:${port}${path}`;
    },
  });
  const bound = app.server.address();
  return `http://${host}:${typeof bound === "object" && bound ? bound.port : options.port}${path}`;
}
