import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { keepBodyDigests, requestBodyDigest } from "../lib/auth/body-digest.ts";
import { PRINCIPAL_HEADER, PrincipalVerifier } from "../lib/auth/internal-principal.ts";
import type { ReplayStore } from "../lib/auth/replay-store.ts";
import type { Principal } from "../lib/auth/principal.ts";
import { AppError, appError } from "../lib/errors/app-error.ts";
import { answerWithApollo, refuseLongDocument } from "../lib/graphql/apollo-http.ts";
import type { RequestContext } from "../lib/graphql/context.ts";
import { createHttpServer, type HttpSettings } from "../lib/http.ts";
import { answerGraphqlErrors } from "../lib/graphql/http-errors.ts";
import { graphqlBodyLimit, type GraphqlLimits } from "../lib/graphql/limits.ts";
import type { Logger } from "../lib/logger.ts";
import type { TrustProxy } from "../lib/trust-proxy.ts";
import type { Authenticator } from "./authenticate.ts";
import { registerIdeAssets, sendIdePage, wantsIde } from "./graphql-ide.ts";
import type { KnownOperations } from "./known-operations.ts";
import { requestCost } from "./request-cost.ts";
import { requestPrincipal, type PrincipalRequest } from "./request-principal.ts";
import type { ApolloServer } from "@apollo/server";

export interface GraphqlAppOptions {
  server: ApolloServer<RequestContext>;
  /** the AgentTool contract, served at /graphql/agent (public listener only) */
  agentServer?: ApolloServer<RequestContext>;
  logger: Logger;
  /** makes each request's principal (gateway/request-principal.ts), or a catalogue error to answer with */
  authenticator: Authenticator;
  /** TRUST_PROXY (public listener only): proxies whose X-Forwarded-For names the client */
  trustProxy?: TrustProxy;
  /** timeouts and load shedding (lib/http.ts) */
  http?: HttpSettings;
  /** GRAPHQL_LIMITS: the document length is checked before anything parses it, and bounds the public body */
  limits: GraphqlLimits;
  /** GRAPHQL_IDE (public listener only): GraphiQL for browsers on /graphql and /graphql/agent (gateway/graphql-ide.ts) */
  ide?: boolean;
  /** `server`'s queries POSTed again, answered without its pipeline (the gateway's `known`) */
  known?: KnownOperations;
}

/** How a listener makes a request's principal (everything of PrincipalRequest but the headers and trace id it reads itself), and the client's User-Agent. */
type Caller = Omit<PrincipalRequest, "headers" | "trace_id"> & { user_agent?: string };

/**
 * The public `/graphql` over HTTP (dashboards, API clients). Credentials are the REST headers
 * only ("required": a credential that fails is the caller's 401; none at all is anonymous and
 * counts per client address here): a signed internal principal means nothing here (our services
 * use the internal listener), so one captured on the wire cannot be replayed from outside. A
 * mutation spends one unit per root field, refused whole before any of them runs.
 */
export async function buildGraphqlApp(options: GraphqlAppOptions): Promise<FastifyInstance> {
  const app = createHttpServer(options.logger, { bodyLimit: graphqlBodyLimit(options.limits), trustProxy: options.trustProxy, http: options.http, name: "graphql" });
  return graphqlRoutes(app, options, (request) => ({
    credentials: "required",
    client_address: request.ip,
    user_agent: request.headers["user-agent"],
    cost: requestCost(request.method === "GET" ? request.query : request.body),
    countAddress: true,
  }));
}

/**
 * The gateway's internal listener (split mode, GATEWAY_INTERNAL_PORT, never published): only
 * requests the adapter signed for the gateway over their exact body, with the route's credential
 * mode and the client's address in the envelope, each accepted once by all the gateway's replicas
 * (`replays`). The forwarded credential headers then make the
 * principal by the same rule as the adapter's in-process client (gateway/request-principal.ts),
 * counted on the signed client address, at one unit per request as there. Requests without any
 * credential are not counted again: the adapter, facing the client, counted them per address already.
 */
export async function buildInternalGraphqlApp(options: Omit<GraphqlAppOptions, "trustProxy" | "ide"> & { internalSecret: string; replays: ReplayStore }): Promise<FastifyInstance> {
  // the listener's 1 MiB, not the public body limit: the adapter's variables carry REST bodies (up to a route's bodyLimit)
  const app = createHttpServer(options.logger, { http: options.http, name: "gateway-internal" });
  keepBodyDigests(app);
  const verifier = new PrincipalVerifier(options.internalSecret, "gateway", options.replays);
  return graphqlRoutes(app, options, async (request) => {
    const signed =
      request.method === "POST"
        ? await verifier.verify(request.headers[PRINCIPAL_HEADER] as string | undefined, requestBodyDigest(request)).catch((error: unknown) => {
            // the replay store's database is down: nothing says the caller was wrong
            options.logger.warn({ err: error }, "internal principal: the replay store failed");
            throw appError("GEN-503-001");
          })
        : undefined;
    if (signed?.client_address === undefined || signed.credentials === undefined) throw appError("GEN-401-001");
    return { credentials: signed.credentials, client_address: signed.client_address, user_agent: signed.user_agent };
  });
}

function graphqlRoutes(app: FastifyInstance, options: GraphqlAppOptions, identify: (request: FastifyRequest) => Caller | Promise<Caller>): FastifyInstance {
  answerGraphqlErrors(app);
  app.get("/health", async () => ({ status: "ok" }));

  const handler = (server: ApolloServer<RequestContext>, path: string, known?: KnownOperations) => async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header("x-request-id", request.id);
    // a page like /docs: no credential, never counted
    if (options.ide && wantsIde(request)) return sendIdePage(reply, path);
    // like the body limit, before any credential or parse (the public listener's request cost parses mutations)
    const refused = refuseLongDocument(request, reply, options.limits);
    if (refused) return refused;
    let principal: Principal;
    let caller: Caller;
    try {
      caller = await identify(request);
      principal = await requestPrincipal(options.authenticator, { ...caller, headers: request.headers, trace_id: request.id });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.retryAfter !== undefined) reply.header("retry-after", String(error.retryAfter));
      return reply.code(error.status).send({ errors: [{ message: error.detail, extensions: error.extensions }] });
    }
    const client = { address: caller.client_address, ...(caller.user_agent !== undefined && { user_agent: caller.user_agent }) };
    const context = { principal, trace_id: request.id, client };
    const answer = known && (await known.answer(request.body, request.headers.accept, context));
    if (answer) return reply.headers(answer.headers).send(answer.body);
    return answerWithApollo(server, request, reply, context);
  };
  const serve = (path: string, server: ApolloServer<RequestContext>, known?: KnownOperations) => {
    app.post(path, handler(server, path, known));
    app.get(path, handler(server, path));
  };
  serve("/graphql", options.server, options.known);
  if (options.agentServer) serve("/graphql/agent", options.agentServer);
  if (options.ide) registerIdeAssets(app);
  return app;
}
