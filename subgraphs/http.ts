import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginInlineTraceDisabled } from "@apollo/server/plugin/disabled";
import type { FastifyInstance } from "fastify";
import { PRINCIPAL_HEADER, verifyPrincipal } from "../lib/auth/internal-principal.ts";
import { answerWithApollo } from "../lib/graphql/apollo-http.ts";
import type { RequestContext } from "../lib/graphql/context.ts";
import type { Subgraph } from "../lib/graphql/subgraph.ts";
import { createHttpServer } from "../lib/http.ts";
import type { Logger } from "../lib/logger.ts";
import { maskError } from "../gateway/gateway.ts";

/**
 * One subgraph served over HTTP (split mode). Only callers holding the internal secret (the
 * gateway) get in: the principal header is verified on every request, so a subgraph reached
 * directly cannot be fooled into acting for somebody.
 */
export async function buildSubgraphApp(subgraph: Subgraph, options: { internalSecret: string; logger: Logger }): Promise<{ app: FastifyInstance; server: ApolloServer<RequestContext> }> {
  const server = new ApolloServer<RequestContext>({
    schema: subgraph.schema,
    plugins: [ApolloServerPluginInlineTraceDisabled()],
    includeStacktraceInErrorResponses: false,
    formatError: maskError(options.logger),
    logger: options.logger,
  });
  await server.start();
  const app = createHttpServer(options.logger);
  app.get("/health", async () => ({ status: "ok", subgraph: subgraph.name }));
  app.post("/graphql", async (request, reply) => {
    const principal = verifyPrincipal(request.headers[PRINCIPAL_HEADER] as string | undefined, options.internalSecret);
    if (!principal) return reply.code(401).send({ errors: [{ message: "A signed principal is required.", extensions: { code: "UNAUTHENTICATED" } }] });
    const traceId = (request.headers["x-request-id"] as string | undefined) ?? request.id;
    return answerWithApollo(server, request, reply, { principal, trace_id: traceId });
  });
  return { app, server };
}
