import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginInlineTraceDisabled } from "@apollo/server/plugin/disabled";
import type { FastifyInstance } from "fastify";
import { keepBodyDigests, requestBodyDigest } from "../lib/auth/body-digest.ts";
import { PRINCIPAL_HEADER, PrincipalVerifier } from "../lib/auth/internal-principal.ts";
import type { ReplayStore } from "../lib/auth/replay-store.ts";
import { AppError, appError } from "../lib/errors/app-error.ts";
import { answerWithApollo, refuseLongDocument } from "../lib/graphql/apollo-http.ts";
import type { RequestContext } from "../lib/graphql/context.ts";
import type { Subgraph } from "../lib/graphql/subgraph.ts";
import { createHttpServer, type HttpSettings } from "../lib/http.ts";
import { answerGraphqlErrors } from "../lib/graphql/http-errors.ts";
import { depthRule, limitParseOptions, subgraphLimits, type GraphqlLimits } from "../lib/graphql/limits.ts";
import type { Logger } from "../lib/logger.ts";
import { maskError } from "../lib/graphql/mask-error.ts";

/**
 * One subgraph served over HTTP (split mode). Only callers holding the internal secret (the
 * gateway) get in: the principal header is verified on every request (signed for this subgraph,
 * over this very body, fresh and not seen before by any replica of the subgraph: `replays`), so a
 * subgraph reached directly cannot be fooled into acting for somebody, nor replay what it captured. What gets in meets the
 * gateway's depth, token and length limits (GRAPHQL_LIMITS) with room for the query planner's
 * additions (subgraphLimits).
 */
export async function buildSubgraphApp(
  subgraph: Subgraph,
  options: { internalSecret: string; replays: ReplayStore; logger: Logger; http?: HttpSettings; limits: GraphqlLimits },
): Promise<{ app: FastifyInstance; server: ApolloServer<RequestContext> }> {
  const limits = subgraphLimits(options.limits);
  const server = new ApolloServer<RequestContext>({
    schema: subgraph.schema,
    validationRules: [depthRule(limits)],
    parseOptions: limitParseOptions(limits),
    plugins: [ApolloServerPluginInlineTraceDisabled()],
    includeStacktraceInErrorResponses: false,
    // bin/run.ts owns the termination signals (see gateway/gateway.ts)
    stopOnTerminationSignals: false,
    formatError: maskError(options.logger),
    logger: options.logger,
  });
  await server.start();
  const app = createHttpServer(options.logger, { http: options.http, name: `subgraph-${subgraph.name}` });
  answerGraphqlErrors(app);
  keepBodyDigests(app);
  const verifier = new PrincipalVerifier(options.internalSecret, subgraph.name, options.replays);
  app.get("/health", async () => ({ status: "ok", subgraph: subgraph.name }));
  app.post("/graphql", async (request, reply) => {
    const verified = await verifier.verify(request.headers[PRINCIPAL_HEADER] as string | undefined, requestBodyDigest(request)).catch((error: unknown) => {
      // the replay store's database is down: nothing says the caller was wrong
      options.logger.warn({ err: error }, "internal principal: the replay store failed");
      return appError("GEN-503-001");
    });
    if (!verified || verified instanceof AppError) {
      const refused = verified ?? appError("GEN-401-001");
      return reply.code(refused.status).send({ errors: [{ message: refused.detail, extensions: refused.extensions }] });
    }
    const tooLong = refuseLongDocument(request, reply, limits);
    if (tooLong) return tooLong;
    const traceId = (request.headers["x-request-id"] as string | undefined) ?? request.id;
    const client = { ...(verified.client_address !== undefined && { address: verified.client_address }), ...(verified.user_agent !== undefined && { user_agent: verified.user_agent }) };
    return answerWithApollo(server, request, reply, { principal: verified.principal, trace_id: traceId, client });
  });
  return { app, server };
}
