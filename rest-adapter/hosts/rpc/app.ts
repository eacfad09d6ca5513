import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError, isChosenRefusal } from "../../../lib/errors/app-error.ts";
import { MemoryRateLimiter } from "../../../lib/rate-limit/memory-rate-limiter.ts";
import type { RateLimitRule, RateLimiter } from "../../../lib/rate-limit/rate-limiter.ts";
import { buildHttpApp } from "../../route-kit/app.ts";
import type { RateLimitedBy } from "../../route-kit/route.ts";
import type { ListenerOptions } from "../platform.ts";
import { healthRoutes } from "../../routes/health.ts";
import { RpcHttpError, authorise, gatewayKeyAuthenticator, keyOf, limitExceeded, refuse, type RpcAuthenticate } from "./auth.ts";
import { buildRpcOpenApiDocument } from "./openapi.ts";
import { RPC_ERROR, assemble, errorResponse, parseBody, planCall, upstreamCalls, type JsonRpcResponse, type UpstreamOutcome } from "./protocol.ts";
import { DEFAULT_UPSTREAM_TIMEOUT_MS, UpstreamError, httpUpstreams } from "./upstream.ts";

export interface RpcAppOptions extends ListenerOptions {
  /** verifies `Authorization: Bearer <key>`; default (both run modes): gatewayKeyAuthenticator over `gateway` */
  authenticate?: RpcAuthenticate;
  /** CHAIN_RPC_URLS: the chains served and their upstream nodes (http and https ones; ws ones are not served) */
  chainRpcUrls: Readonly<Record<number, string>>;
  /** the `rpc` rule of RATE_LIMITS, per key; a batch of N calls costs N */
  rateLimit: RateLimitRule;
  /** in memory (per process) unless a shared limiter is passed */
  rateLimiter?: RateLimiter;
  upstreamTimeoutMs?: number;
  fetch?: typeof fetch;
  bodyLimit?: number;
}

const BODY_LIMIT = 1_048_576;

/** Keys in paths stay out of logs: `/v0/rpc/1/idsvc_pk_test_…` is logged with the prefix only. */
function redactKey(url: string): string {
  return url.replace(/\/(idsvc_[a-z]{2}_[a-z]+_)[^/?#]*/gi, "/$1…");
}

function cors(request: FastifyRequest, reply: FastifyReply): void {
  // no cookies are ever used, so any origin may call with its key
  reply.header("access-control-allow-origin", "*");
  reply.header("access-control-expose-headers", "retry-after, x-request-id");
  if (request.method === "OPTIONS") {
    reply.header("access-control-allow-methods", "POST, OPTIONS");
    reply.header("access-control-allow-headers", (request.headers["access-control-request-headers"] as string | undefined) ?? "authorization, content-type");
    reply.header("access-control-max-age", "86400");
  }
}

const RPC_PATH = /^\/v0\/rpc\/[^/]+(\/[^/]+)?\/?$/;

/**
 * The RPC host ({rpc_url}): `POST /v0/rpc/{chain_id}` (key as Bearer) and
 * `POST /v0/rpc/{chain_id}/{key}` (key in the path) forward allowed JSON-RPC calls to the
 * chain's upstream; `/health` and `/openapi.json` as on every listener. Everything under
 * `/v0/rpc` answers JSON-RPC error objects, never ProblemDetails.
 */
export function buildRpcApp(options: RpcAppOptions): Promise<FastifyInstance> {
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const { upstreams, skipped } = httpUpstreams(options.chainRpcUrls, { timeoutMs: upstreamTimeoutMs, ...(options.fetch && { fetch: options.fetch }) });
  if (skipped.length) options.logger.warn({ chains: skipped }, "RPC host: chains with only a ws(s) upstream in CHAIN_RPC_URLS are not served (it forwards over HTTP)");
  const chains = [...upstreams.keys()].sort((a, b) => a - b);
  const limiter = options.rateLimiter ?? new MemoryRateLimiter();
  const authenticate = options.authenticate ?? gatewayKeyAuthenticator(options.gateway);
  const bodyLimit = options.bodyLimit ?? BODY_LIMIT;
  const document = buildRpcOpenApiDocument({ rpcUrl: options.baseUrl, chains, rateLimit: options.rateLimit, upstreamTimeoutMs });

  const countAddress = async (request: FastifyRequest) => {
    const rateLimits = options.rateLimits;
    if (!rateLimits) return;
    const decision = await rateLimits.limiter.consume(`ip:${request.ip}`, rateLimits.rules.ip);
    if (!decision.allowed) throw limitExceeded(decision.retryAfterSeconds, `at most ${rateLimits.rules.ip.limit} requests without a valid key per ${rateLimits.rules.ip.windowMs / 1000} s per address`, "ip");
  };

  const send = (reply: FastifyReply, status: number, payload: JsonRpcResponse | JsonRpcResponse[]) => reply.code(status).type("application/json; charset=utf-8").send(JSON.stringify(payload));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { chain_id: string; key?: string };
    let key: string;
    try {
      key = keyOf(request.headers.authorization, params.key);
    } catch (error) {
      // no key to verify: the request counts against its address, like any without a credential
      await countAddress(request);
      throw error;
    }
    // failed verifications count against `auth_failure` (credential mode "verify"); a verified key against `rpc` below
    const principal = await authorise(authenticate, key, request.id, request.ip);
    request.log = request.log.child({ key_id: principal.key_id, org_id: principal.org_id });

    const chainId = /^[1-9]\d{0,15}$/.test(params.chain_id) ? Number(params.chain_id) : Number.NaN;
    const upstream = upstreams.get(chainId);
    if (!upstream) throw refuse(404, RPC_ERROR.RESOURCE_UNAVAILABLE, `chain ${params.chain_id} is not served by this RPC host`, { chains });

    const parsed = parseBody(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0), request.headers["content-type"]);
    const cost = parsed.ok && parsed.batch ? parsed.items.length : 1;
    const decision = await limiter.consume(`rpc:${principal.key_id}`, options.rateLimit, cost);
    if (!decision.allowed) throw limitExceeded(decision.retryAfterSeconds, `at most ${options.rateLimit.limit} calls per ${options.rateLimit.windowMs / 1000} s per key`, "rpc");
    if (!parsed.ok) return send(reply, 400, parsed.response);

    const plans = parsed.batch ? parsed.items.map(planCall) : [planCall(parsed.item)];
    const calls = upstreamCalls(plans);
    let status = 200;
    let outcome: UpstreamOutcome | undefined;
    if (calls.length > 0) {
      try {
        outcome = { ok: true, responses: await upstream.send(parsed.batch ? calls : calls[0]!) };
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        request.log.warn({ err: error.cause ?? error, chain_id: chainId }, `RPC upstream failed: ${error.message}`);
        status = error.status;
        outcome = { ok: false, error: { code: RPC_ERROR.INTERNAL_ERROR, message: `internal error: ${error.message}`, data: { chain_id: chainId } } };
      }
    }
    const responses = assemble(plans, outcome);
    if (responses.length === 0) return reply.code(204).send(); // notifications only
    if (parsed.batch) return send(reply, status, responses);
    // one request: an invalid request object is the request's own fault, like a parse error
    if (plans[0]!.kind === "answered" && responses[0]!.error?.code === RPC_ERROR.INVALID_REQUEST) status = 400;
    return send(reply, status, responses[0]!);
  };

  const rpcRoutes = async (app: FastifyInstance) => {
    // the body is read whatever its media type (some clients send text/plain to avoid a CORS preflight), and parsed by the handler
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit }, (_request, body, done) => done(null, body));

    app.addHook("onRequest", async (request, reply) => {
      request.raw.url = redactKey(request.raw.url ?? "");
      cors(request, reply);
    });

    app.setErrorHandler((error: unknown, request, reply) => {
      if (error instanceof RpcHttpError) {
        if (error.status >= 500) request.log.error({ err: error.cause ?? error }, "RPC request failed");
        for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
        return send(reply, error.status, error.response);
      }
      if (error instanceof AppError && isChosenRefusal(error)) {
        reply.header("retry-after", String(error.retryAfter));
        return send(reply, 503, errorResponse(null, RPC_ERROR.RESOURCE_UNAVAILABLE, `resource unavailable: ${error.detail}`, { retry_after_seconds: error.retryAfter }));
      }
      const statusCode = (error as { statusCode?: number }).statusCode;
      if (statusCode === 413) return send(reply, 413, errorResponse(null, RPC_ERROR.INVALID_REQUEST, `invalid request: the body is larger than ${bodyLimit} bytes`));
      if (statusCode !== undefined && statusCode >= 400 && statusCode < 500)
        return send(reply, statusCode, errorResponse(null, RPC_ERROR.INVALID_REQUEST, `invalid request: ${(error as Error).message}`));
      request.log.error({ err: error }, "RPC request failed");
      return send(reply, 500, errorResponse(null, RPC_ERROR.INTERNAL_ERROR, "internal error"));
    });

    app.setNotFoundHandler((request, reply) => {
      cors(request, reply);
      const path = request.url.split("?")[0]!;
      if (RPC_PATH.test(path)) {
        reply.header("allow", "POST, OPTIONS");
        return send(reply, 405, errorResponse(null, RPC_ERROR.INVALID_REQUEST, `invalid request: ${request.method} is not allowed here; use POST`));
      }
      return send(reply, 404, errorResponse(null, RPC_ERROR.INVALID_REQUEST, `invalid request: nothing at ${path}; use POST /v0/rpc/{chain_id}`));
    });

    const preflight = async (_request: FastifyRequest, reply: FastifyReply) => reply.code(204).send();
    // the handler counts: per key once it verifies, else per address (see RateLimitedBy)
    const config = { rateLimit: "handler" } satisfies { rateLimit: RateLimitedBy };
    for (const url of ["/:chain_id", "/:chain_id/:key"]) {
      app.options(url, preflight);
      app.post(url, { config }, handler);
    }
  };

  return buildHttpApp({
    ...options,
    name: "rpc",
    routes: healthRoutes,
    credentialHeaders: [],
    bodyLimit,
    document,
    answerBadUrl: (request, reply) => {
      if (!request.url.startsWith("/v0/rpc/")) return false;
      cors(request, reply);
      void send(reply, 404, errorResponse(null, RPC_ERROR.INVALID_REQUEST, "invalid request: the path is not a valid URL; use POST /v0/rpc/{chain_id}"));
      return true;
    },
    extra: (app) => {
      app.register(rpcRoutes, { prefix: "/v0/rpc" });
    },
  });
}
