import cluster from "node:cluster";
import type { FastifyInstance } from "fastify";
import { startTracing } from "../lib/tracing.ts";
import { enableMetrics, servesOwnMetrics, startMetricsServer } from "../lib/metrics.ts";
import { agentTokenUseRecorder } from "../gateway/agent-access.ts";
import { createAuthenticator } from "../gateway/authenticate.ts";
import { Gateway } from "../gateway/gateway.ts";
import { buildGraphqlApp, buildInternalGraphqlApp } from "../gateway/http.ts";
import { replayStoreFor, type ReplayStore } from "../lib/auth/replay-store.ts";
import { SigningKey } from "../lib/auth/signing-key.ts";
import { ConfigError, type Config } from "../lib/config.ts";
import { openDatabase } from "../lib/db/database.ts";
import { applyMigrations, subgraphMigrationSets } from "../lib/db/migrations.ts";
import { isSubgraphName, SUBGRAPH_NAMES, subgraphEntry, type SubgraphName } from "../lib/graphql/subgraph-registry.ts";
import { FederatedClient, RemoteSubgraphTransport } from "../lib/graphql/federated-client.ts";
import { listen } from "../lib/http.ts";
import { createLogger, type Logger } from "../lib/logger.ts";
import { announceSandbox } from "../lib/sandbox.ts";
import { rateLimitsFor, type RateLimits } from "../lib/rate-limit/rate-limits.ts";
import { HttpGatewayClient } from "../rest-adapter/route-kit/gateway-client.ts";
import { buildIdentityApp } from "../rest-adapter/hosts/identity.ts";
import { buildPlatformApp } from "../rest-adapter/hosts/platform.ts";
import { assistantFor } from "../rest-adapter/agent-runtime/chat/assistant-for.ts";
import { platformWebhooks } from "../rest-adapter/webhooks/index.ts";
import { buildRpcApp } from "../rest-adapter/hosts/rpc/app.ts";
import { readSupergraph } from "./supergraph.ts";

export const SERVICE_NAMES = [...SUBGRAPH_NAMES, "gateway", "adapter"] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface RunningService {
  urls: string[];
  /** SHUTDOWN_TIMEOUT_MS, for bin/run.ts */
  shutdownTimeoutMs?: number;
  stop(): Promise<void>;
}

function requireInternalSecret(config: Config): string {
  if (!config.internalSecret) throw new ConfigError("INTERNAL_SECRET", "is required in split mode (the same value for every service)");
  return config.internalSecret;
}

/**
 * The gateway and the adapter have no database of their own; on the PostgreSQL store they open
 * one (DATABASE_URL) for the shared rate-limit buckets, and the gateway on PostgreSQL for the
 * principals its internal listener accepted (shared by its replicas, lib/auth/replay-store.ts).
 */
async function edgeState(name: "gateway" | "adapter", config: Config, logger: Logger): Promise<{ rateLimits: RateLimits; replays: ReplayStore; close: () => Promise<void> }> {
  const needed = config.rateLimits.store === "postgres" || (name === "gateway" && config.databaseUrl !== undefined);
  const database = needed ? await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, timeouts: config.databaseTimeouts }) : undefined;
  const rateLimits = await rateLimitsFor(config, database, logger);
  const replays = await replayStoreFor(name === "gateway" ? database : undefined);
  return {
    rateLimits,
    replays,
    close: async () => {
      await rateLimits.limiter.close?.();
      await replays.close?.();
      await database?.close();
    },
  };
}

function subgraphUrl(config: Config, name: SubgraphName): string {
  return config.subgraphUrls[name] ?? subgraphEntry(name).defaultUrl;
}

/**
 * One service of the split topology (docker-compose.yml): a subgraph with its own migrations and
 * job workers, the gateway over HTTP data sources, or the REST adapter calling the gateway.
 */
export async function startService(name: ServiceName, config: Config, env: Record<string, string | undefined> = process.env): Promise<RunningService> {
  const logger = createLogger(config.logLevel, { component: name });
  // both on before the listeners are built, so they count and trace their requests
  if (config.metricsPort !== undefined) enableMetrics();
  const tracing = await startTracing({ endpoint: config.otlpEndpoint, serviceName: `platform-${name}`, logger });
  const service = await startServiceListeners(name, config, env);
  // a worker of several leaves METRICS_PORT to the primary (server/workers.ts)
  const metrics = config.metricsPort === undefined || !servesOwnMetrics() ? undefined : await startMetricsServer({ port: config.metricsPort, host: config.host, logger });
  return {
    urls: [...service.urls, ...(metrics ? [metrics.url] : [])],
    shutdownTimeoutMs: config.shutdownTimeoutMs,
    async stop() {
      await metrics?.close();
      await service.stop();
      await tracing?.shutdown();
    },
  };
}

async function startServiceListeners(name: ServiceName, config: Config, env: Record<string, string | undefined>): Promise<RunningService> {
  const logger = createLogger(config.logLevel, { component: name });
  // a worker of several: the primary announced it once (server/workers.ts)
  if (!cluster.isWorker) announceSandbox(config, logger);
  const internalSecret = requireInternalSecret(config);

  if (isSubgraphName(name)) {
    // loaded here alone, so the gateway and the adapter carry no subgraph code or Prisma client (issue 28)
    const [{ createSubgraph }, { buildSubgraphApp }] = await Promise.all([import("./subgraphs.ts"), import("../subgraphs/http.ts")]);
    const subgraphName = name;
    const port = env.SUBGRAPH_PORT !== undefined ? Number(env.SUBGRAPH_PORT) : subgraphEntry(subgraphName).port;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError("SUBGRAPH_PORT", "expected a TCP port");
    const migrationSets = subgraphMigrationSets([subgraphName]);
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, premigrated: migrationSets, timeouts: config.databaseTimeouts });
    await applyMigrations(database, migrationSets);
    const signingKey = await SigningKey.load(config.signingKey, config.dataDir);
    const rateLimits = await rateLimitsFor(config, database, logger);
    const replays = await replayStoreFor(database);
    // its peers (identity asks users who owns a wallet) over HTTP, as itself, with signed internal principals
    const reach = (peer: SubgraphName) => new RemoteSubgraphTransport(subgraphUrl(config, peer), peer, internalSecret);
    const subgraph = await createSubgraph(subgraphName, { config, database, logger, signingKey, rateLimits }, reach);
    const { app, server } = await buildSubgraphApp(subgraph, { internalSecret, replays, logger, http: config.http, limits: config.graphql.limits });
    const url = await listen(app, { name: subgraphName, port, host: config.host, path: "/graphql" });
    subgraph.start();
    return {
      urls: [url],
      async stop() {
        await app.close();
        await server.stop();
        await subgraph.stop();
        await rateLimits.limiter.close?.();
        await replays.close?.();
        await database.close();
      },
    };
  }

  const { rateLimits, replays, close } = await edgeState(name, config, logger);

  if (name === "gateway") {
    if (config.authProviders.some((p) => p.name === "siwe" && !p.jwks_uri && !p.public_key) && !config.signingKey)
      throw new ConfigError("SIGNING_KEY", "is required in split mode when siwe is configured (the gateway verifies what the users service signs)");
    const signingKey = await SigningKey.load(config.signingKey, config.dataDir);
    const gateway = await Gateway.start({
      supergraphSdl: readSupergraph(),
      subgraphs: Object.fromEntries(SUBGRAPH_NAMES.map((s) => [s, { url: subgraphUrl(config, s) }])),
      internalSecret,
      logger,
      graphql: config.graphql,
      recordAgentTokenUse: agentTokenUseRecorder(new FederatedClient("agents", new RemoteSubgraphTransport(subgraphUrl(config, "agents"), "agents", internalSecret), "gateway")),
    });
    const authenticator = createAuthenticator({ config, signingKey, users: new RemoteSubgraphTransport(subgraphUrl(config, "users"), "users", internalSecret), identity: new RemoteSubgraphTransport(subgraphUrl(config, "identity"), "identity", internalSecret), agents: new RemoteSubgraphTransport(subgraphUrl(config, "agents"), "agents", internalSecret), rateLimits });
    const app = await buildGraphqlApp({ server: gateway.server, agentServer: gateway.agentServer, logger, authenticator, trustProxy: config.trustProxy, http: config.http, limits: config.graphql.limits, ide: config.graphql.ide, known: gateway.known });
    const url = await listen(app, { name: "graphql", port: config.graphqlPort, host: config.host, path: "/graphql" });
    // the adapter's way in (GATEWAY_URL): signed requests only, on the internal network alone
    const internal = await buildInternalGraphqlApp({ server: gateway.server, logger, authenticator, internalSecret, replays, http: config.http, limits: config.graphql.limits, known: gateway.known });
    const internalUrl = await listen(internal, { name: "graphql-internal", port: config.gatewayInternalPort, host: config.host, path: "/graphql" });
    return {
      urls: [url, internalUrl],
      async stop() {
        await app.close();
        await internal.close();
        await gateway.stop();
        await close();
      },
    };
  }

  const gatewayClient = new HttpGatewayClient(config.gatewayUrl, internalSecret);
  const listener = { gateway: gatewayClient, logger, docsUrl: config.docsUrl, rateLimits, trustProxy: config.trustProxy, corsOrigins: config.corsOrigins, http: config.http };
  const apps: [FastifyInstance, number, string][] = [
    [await buildPlatformApp({ ...listener, baseUrl: config.publicBaseUrl, webhooks: platformWebhooks(config), sandbox: config.sandbox, assistant: assistantFor(config) }), config.port, "platform"],
    [await buildIdentityApp({ ...listener, baseUrl: config.publicIdentityUrl, rpcUrl: config.publicRpcUrl, pintDomainSalt: config.pintDomainSalt, sandbox: config.sandbox }), config.identityPort, "identity"],
    [
      await buildRpcApp({
        ...listener,
        baseUrl: config.publicRpcUrl,
        chainRpcUrls: config.chainRpcUrls,
        rateLimit: rateLimits.rules.rpc,
        rateLimiter: rateLimits.limiter,
      }),
      config.rpcPort,
      "rpc",
    ],
  ];
  const urls: string[] = [];
  for (const [app, port, listenerName] of apps) urls.push(await listen(app, { name: listenerName, port, host: config.host }));
  return {
    urls,
    async stop() {
      await Promise.all(apps.map(([app]) => app.close()));
      await close();
    },
  };
}
