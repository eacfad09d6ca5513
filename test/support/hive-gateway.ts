// Hive Gateway (@graphql-hive/gateway-runtime) in front of the split-mode subgraphs, with the one
// plugin a third-party router needs: our subgraphs take only requests carrying an internal
// principal signed for them over the exact body (lib/auth/internal-principal.ts), which no router
// can make by itself. README "Another router in front" describes it; an operator deploys the same.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { PRINCIPAL_HEADER, signPrincipal } from "../../lib/auth/internal-principal.ts";
import type { Principal } from "../../lib/auth/principal.ts";
import { AppError, appError } from "../../lib/errors/app-error.ts";
import type { SubgraphName } from "../../lib/graphql/subgraph-registry.ts";
import { requestPrincipal } from "../../gateway/request-principal.ts";
import { createAuthenticator, type Authenticator } from "../../gateway/authenticate.ts";
import { SigningKey } from "../../lib/auth/signing-key.ts";
import { loadConfig } from "../../lib/config.ts";
import { RemoteSubgraphTransport } from "../../lib/graphql/federated-client.ts";
import { rateLimitsFor } from "../../lib/rate-limit/rate-limits.ts";

/**
 * The few hooks of Hive Gateway's plugin API used here. The package is imported untyped
 * (startHiveGateway): its declarations pull TypeScript's DOM library into the whole program
 * (through @whatwg-node/fetch), which retypes Node's fetch for every other file.
 */
export interface GatewayPlugin {
  onRequest?(payload: { request: Request; url: URL; serverContext: unknown; endResponse(response: Response): void }): Promise<void> | void;
  onFetch?(payload: { url: string; options: RequestInit; setOptions(options: RequestInit): void; context: { request?: Request } }): void;
}

interface GatewayRuntime {
  (request: IncomingMessage, response: ServerResponse): void;
  dispose(): Promise<void>;
}

interface Caller {
  principal: Principal;
  trace_id: string;
  client_address?: string;
  user_agent?: string;
}

export interface PrincipalSigningOptions {
  /** our gateway's authentication (gateway/authenticate.ts createAuthenticator), unchanged */
  authenticator: Authenticator;
  /** INTERNAL_SECRET, the value every service shares */
  internalSecret: string;
  /** each subgraph's URL: a fetch is signed for the subgraph it goes to */
  subgraphUrls: Record<SubgraphName, string>;
  /** the client's address (the router's own knowledge: a socket, a trusted X-Forwarded-For) */
  clientAddress: (request: Request, serverContext: unknown) => string | undefined;
}

function refusal(error: AppError): Response {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (error.retryAfter !== undefined) headers["retry-after"] = String(error.retryAfter);
  return new Response(JSON.stringify({ errors: [{ message: error.detail, extensions: error.extensions }] }), { status: error.status, headers });
}

/**
 * Authenticates each client request once, as our public /graphql does (the REST credential
 * headers, "required": a credential that fails is a 401, none at all is anonymous), then signs the
 * principal into every subgraph fetch of its plan, for that subgraph and over the body sent.
 */
export function principalSigning(options: PrincipalSigningOptions): GatewayPlugin {
  const audiences = new Map(Object.entries(options.subgraphUrls).map(([name, url]) => [url, name as SubgraphName]));
  const callers = new WeakMap<Request, Caller>();
  return {
    async onRequest({ request, url, serverContext, endResponse }) {
      if (url.pathname !== "/graphql") return;
      const trace_id = randomUUID();
      const client_address = options.clientAddress(request, serverContext);
      const user_agent = request.headers.get("user-agent") ?? undefined;
      try {
        const principal = await requestPrincipal(options.authenticator, {
          credentials: "required",
          headers: Object.fromEntries(request.headers),
          trace_id,
          client_address: client_address ?? "unknown",
          countAddress: true,
        });
        // our gateway narrows agent tokens to the AgentTool fields their scopes allow (gateway/agent-access.ts); nothing here does
        if (principal.kind === "agent") throw appError("AGT-403-001", "Agent tokens are served by the platform's own gateway only.");
        callers.set(request, { principal, trace_id, ...(client_address !== undefined && { client_address }), ...(user_agent !== undefined && { user_agent }) });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        endResponse(refusal(error));
      }
    },
    onFetch({ url, options: init, setOptions, context }) {
      const audience = audiences.get(url);
      const caller = audience && context.request ? callers.get(context.request) : undefined;
      // not a client's request (none is made here otherwise): sent unsigned, the subgraph refuses it
      if (!audience || !caller) return;
      if (typeof init.body !== "string") throw new Error(`${audience}: a subgraph fetch without a string body cannot be signed`);
      const headers = new Headers(init.headers);
      headers.set(PRINCIPAL_HEADER, signPrincipal(caller.principal, { secret: options.internalSecret, audience, body: init.body, clientAddress: caller.client_address, userAgent: caller.user_agent }));
      headers.set("x-request-id", caller.trace_id);
      setOptions({ ...init, headers: Object.fromEntries(headers) });
    },
  };
}

/**
 * Our gateway's authentication as server/split.ts builds it, from the same environment variables
 * (AUTH_PROVIDERS, DASHBOARD_AUTH, SIGNING_KEY, RATE_LIMITS, ...): it asks the users, identity and
 * agents subgraphs who a credential is, as the gateway.
 */
export async function platformAuthenticator(env: Record<string, string | undefined>, subgraphUrls: Record<SubgraphName, string>): Promise<Authenticator> {
  const config = loadConfig(env);
  const secret = config.internalSecret!;
  return createAuthenticator({
    config,
    signingKey: await SigningKey.load(config.signingKey, config.dataDir),
    users: new RemoteSubgraphTransport(subgraphUrls.users, "users", secret),
    identity: new RemoteSubgraphTransport(subgraphUrls.identity, "identity", secret),
    agents: new RemoteSubgraphTransport(subgraphUrls.agents, "agents", secret),
    rateLimits: await rateLimitsFor(config),
  });
}

export interface HiveGateway {
  url: string;
  stop(): Promise<void>;
}

/** Hive Gateway's runtime on a loopback listener: our checked-in supergraph, the subgraphs at `subgraphUrls`, `plugins` (principalSigning). */
export async function startHiveGateway(options: { supergraph: string; subgraphUrls: Record<SubgraphName, string>; plugins: GatewayPlugin[] }): Promise<HiveGateway> {
  const runtime: string = "@graphql-hive/gateway-runtime";
  const { createGatewayRuntime } = (await import(runtime)) as { createGatewayRuntime(config: Record<string, unknown>): GatewayRuntime };
  const gateway = createGatewayRuntime({
    supergraph: options.supergraph,
    // the supergraph names the docker-compose hosts; here the subgraphs listen on loopback ports
    transportEntries: Object.fromEntries(Object.entries(options.subgraphUrls).map(([name, location]) => [name, { location }])),
    plugins: () => options.plugins,
    logging: "error",
    graphiql: false,
  });
  const server = createServer(gateway);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await gateway.dispose();
    },
  };
}

/** The socket's address, for a listener that faces clients directly (node:http's server context). */
export function socketAddress(_request: Request, serverContext: unknown): string | undefined {
  return (serverContext as { req?: IncomingMessage }).req?.socket.remoteAddress;
}
