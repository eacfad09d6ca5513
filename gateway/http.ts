import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { keepBodyDigests, requestBodyDigest } from "../lib/auth/body-digest.ts";
import { CREDENTIAL_HEADERS, hasAnyHeader } from "../lib/auth/credential-headers.ts";
import { PRINCIPAL_HEADER, PrincipalVerifier } from "../lib/auth/internal-principal.ts";
import type { Principal } from "../lib/auth/principal.ts";
import { AppError, appError } from "../lib/errors/app-error.ts";
import { answerWithApollo } from "../lib/graphql/apollo-http.ts";
import type { RequestContext } from "../lib/graphql/context.ts";
import { createHttpServer } from "../lib/http.ts";
import type { Logger } from "../lib/logger.ts";
import type { TrustProxy } from "../lib/trust-proxy.ts";
import { limit, type RateLimits } from "../lib/rate-limit/rate-limits.ts";
import { requestCost } from "./request-cost.ts";
import type { ApolloServer } from "@apollo/server";

export interface GraphqlAppOptions {
  server: ApolloServer<RequestContext>;
  logger: Logger;
  /** the principal of a request, or a catalogue error to answer with; `clientAddress`: who sent it */
  authenticate: (headers: Record<string, string | string[] | undefined>, traceId: string, options: { clientAddress: string; cost?: number }) => Promise<Principal>;
  /** requests without any credential count per client address */
  rateLimits?: RateLimits;
  /** TRUST_PROXY (public listener only): proxies whose X-Forwarded-For names the client */
  trustProxy?: TrustProxy;
}

/** Who sent a request: its client address, and the principal when one of our services acts as itself. */
interface Caller {
  clientAddress: string;
  principal?: Principal;
}

/**
 * The public `/graphql` over HTTP (dashboards, API clients). Credentials are the REST headers
 * only: a signed internal principal means nothing here (our services use the internal listener),
 * so one captured on the wire cannot be replayed from outside.
 */
export async function buildGraphqlApp(options: GraphqlAppOptions): Promise<FastifyInstance> {
  const app = createHttpServer(options.logger, { trustProxy: options.trustProxy });
  return graphqlRoutes(app, options, (request) => ({ clientAddress: request.ip }));
}

/**
 * The gateway's internal listener (split mode, GATEWAY_INTERNAL_PORT, never published): only
 * requests the adapter signed for the gateway over their exact body. The adapter's own principal
 * (webhook receivers) acts as itself; otherwise the forwarded credential headers are verified as
 * on the public listener, with the signed client address as the request's (failed and
 * unverified credentials count on it). Requests without any credential are not counted again:
 * the adapter, facing the client, counted them per address already.
 */
export async function buildInternalGraphqlApp(options: Omit<GraphqlAppOptions, "rateLimits" | "trustProxy"> & { internalSecret: string }): Promise<FastifyInstance> {
  const app = createHttpServer(options.logger);
  keepBodyDigests(app);
  const verifier = new PrincipalVerifier(options.internalSecret, "gateway");
  return graphqlRoutes(app, options, (request) => {
    const signed = request.method === "POST" ? verifier.verify(request.headers[PRINCIPAL_HEADER] as string | undefined, requestBodyDigest(request)) : undefined;
    if (signed?.client_address === undefined) throw appError("GEN-401-001");
    return { clientAddress: signed.client_address, ...(signed.principal.kind === "internal" && { principal: signed.principal }) };
  });
}

function graphqlRoutes(app: FastifyInstance, options: GraphqlAppOptions, identify: (request: FastifyRequest) => Caller): FastifyInstance {
  app.get("/health", async () => ({ status: "ok" }));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header("x-request-id", request.id);
    let principal: Principal;
    try {
      const caller = identify(request);
      if (caller.principal) principal = caller.principal;
      else {
        // a mutation spends one unit per root field, refused whole before any of them runs
        const cost = requestCost(request.method === "GET" ? request.query : request.body);
        if (options.rateLimits && !hasAnyHeader(request.headers, CREDENTIAL_HEADERS)) await limit(options.rateLimits, `ip:${caller.clientAddress}`, "ip", cost);
        principal = await options.authenticate(request.headers, request.id, { clientAddress: caller.clientAddress, cost });
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.retryAfter !== undefined) reply.header("retry-after", String(error.retryAfter));
      return reply.code(error.status).send({ errors: [{ message: error.detail, extensions: error.extensions }] });
    }
    return answerWithApollo(options.server, request, reply, { principal, trace_id: request.id });
  };
  app.post("/graphql", handler);
  app.get("/graphql", handler);
  return app;
}
