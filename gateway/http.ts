import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { CREDENTIAL_HEADERS, hasAnyHeader } from "../lib/auth/credential-headers.ts";
import { PRINCIPAL_HEADER, verifyPrincipal } from "../lib/auth/internal-principal.ts";
import type { Principal } from "../lib/auth/principal.ts";
import { AppError } from "../lib/errors/app-error.ts";
import { answerWithApollo } from "../lib/graphql/apollo-http.ts";
import type { RequestContext } from "../lib/graphql/context.ts";
import { createHttpServer } from "../lib/http.ts";
import type { Logger } from "../lib/logger.ts";
import { limit, type RateLimits } from "../lib/rate-limit/rate-limits.ts";
import type { ApolloServer } from "@apollo/server";

export interface GraphqlAppOptions {
  server: ApolloServer<RequestContext>;
  logger: Logger;
  /** the principal of a request, or a catalogue error to answer with */
  authenticate: (headers: Record<string, string | string[] | undefined>, traceId: string) => Promise<Principal>;
  internalSecret: string;
  /** requests without any credential count per client address */
  rateLimits?: RateLimits;
}

/**
 * `/graphql` over HTTP (dashboards, and the adapter in split mode). Credentials are the REST
 * headers; a signed internal principal (our own services) is accepted in their place.
 */
export async function buildGraphqlApp(options: GraphqlAppOptions): Promise<FastifyInstance> {
  const app = createHttpServer(options.logger);
  app.get("/health", async () => ({ status: "ok" }));

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header("x-request-id", request.id);
    let principal: Principal;
    try {
      const internal = verifyPrincipal(request.headers[PRINCIPAL_HEADER] as string | undefined, options.internalSecret);
      if (internal?.kind !== "internal" && options.rateLimits && !hasAnyHeader(request.headers, CREDENTIAL_HEADERS))
        await limit(options.rateLimits, `ip:${request.ip}`, "ip");
      principal = internal?.kind === "internal" ? internal : await options.authenticate(request.headers, request.id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return reply.code(error.status).send({ errors: [{ message: error.detail, extensions: error.extensions }] });
    }
    return answerWithApollo(options.server, request, reply, { principal, trace_id: request.id });
  };
  app.post("/graphql", handler);
  app.get("/graphql", handler);
  return app;
}
