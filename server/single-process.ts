import cluster from "node:cluster";
import { randomBytes } from "node:crypto";
import { startTracing } from "../lib/tracing.ts";
import { enableMetrics, servesOwnMetrics, startMetricsServer } from "../lib/metrics.ts";
import type { FastifyInstance } from "fastify";
import { agentTokenUseRecorder } from "../gateway/agent-access.ts";
import { createAuthenticator } from "../gateway/authenticate.ts";
import { Gateway } from "../gateway/gateway.ts";
import { buildGraphqlApp } from "../gateway/http.ts";
import { SigningKey } from "../lib/auth/signing-key.ts";
import type { Config } from "../lib/config.ts";
import { openDatabase, type Database } from "../lib/db/database.ts";
import { applyMigrations, subgraphMigrationSets } from "../lib/db/migrations.ts";
import { FederatedClient, LocalSubgraphTransport } from "../lib/graphql/federated-client.ts";
import type { Subgraph } from "../lib/graphql/subgraph.ts";
import { SUBGRAPH_NAMES } from "../lib/graphql/subgraph-registry.ts";
import { listen } from "../lib/http.ts";
import { createLogger, type Logger } from "../lib/logger.ts";
import { announceSandbox } from "../lib/sandbox.ts";
import { rateLimitsFor } from "../lib/rate-limit/rate-limits.ts";
import { InProcessGatewayClient } from "../rest-adapter/route-kit/gateway-client.ts";
import { buildIdentityApp } from "../rest-adapter/hosts/identity.ts";
import { buildPlatformApp } from "../rest-adapter/hosts/platform.ts";
import { assistantFor } from "../rest-adapter/agent-runtime/chat/assistant-for.ts";
import type { ResponseMismatchReport } from "../rest-adapter/route-kit/response-check.ts";
import { platformWebhooks } from "../rest-adapter/webhooks/index.ts";
import { buildRpcApp } from "../rest-adapter/hosts/rpc/app.ts";
import type { SafeDeployer } from "../subgraphs/users/safe/safe-deployer.ts";
import { createAllSubgraphs } from "./subgraphs.ts";
import type { ProblemDetail } from "../rest-adapter/route-kit/problem.ts";
import { readSupergraph } from "./supergraph.ts";

export interface StartOptions {
  logger?: Logger;
  /** tests control Safe deployment timing and failures */
  safeDeployer?: SafeDeployer;
  /** false: build everything but do not listen (tests use app.inject) */
  listen?: boolean;
  /** tests: every REST answer is checked against its route's documented responses, mismatches reported here */
  checkResponses?: ResponseMismatchReport;
  /** tests: every ProblemDetail a listener answers */
  observeProblems?: (problem: ProblemDetail) => void;
}

export interface RunningPlatform {
  config: Config;
  database: Database;
  subgraphs: Record<string, Subgraph>;
  gateway: Gateway;
  gatewayClient: InProcessGatewayClient;
  apps: { platform: FastifyInstance; graphql: FastifyInstance; identity: FastifyInstance; rpc: FastifyInstance };
  /** SHUTDOWN_TIMEOUT_MS, for bin/run.ts */
  shutdownTimeoutMs: number;
  /** `metrics`: the METRICS_PORT listener's /metrics URL, "" when metrics are off */
  urls: { platform: string; graphql: string; identity: string; rpc: string; metrics: string };
  stop(): Promise<void>;
}

/**
 * Everything in one process (the default `npm start`): subgraphs, gateway (in-memory data
 * sources), the REST adapter and the four listeners, on one database.
 */
export async function startSingleProcess(config: Config, options: StartOptions = {}): Promise<RunningPlatform> {
  const logger = options.logger ?? createLogger(config.logLevel);
  // a worker of several: the primary announced it once (server/workers.ts)
  if (!cluster.isWorker) announceSandbox(config, logger);
  // on before the listeners are built, so they count (and trace) their requests
  if (config.metricsPort !== undefined) enableMetrics();
  const tracing = await startTracing({ endpoint: config.otlpEndpoint, serviceName: "platform", logger });
  const migrationSets = subgraphMigrationSets(SUBGRAPH_NAMES);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, premigrated: migrationSets, timeouts: config.databaseTimeouts });
  try {
    await applyMigrations(database, migrationSets);
    const rateLimits = await rateLimitsFor(config, database, logger);
    const signingKey = await SigningKey.load(config.signingKey, config.dataDir);
    const deps = { config, database, logger, signingKey, rateLimits, ...(options.safeDeployer && { safeDeployer: options.safeDeployer }) };
    const subgraphs = await createAllSubgraphs(deps);

    const internalSecret = config.internalSecret ?? randomBytes(32).toString("hex");
    const gateway = await Gateway.start({
      supergraphSdl: readSupergraph(),
      subgraphs: Object.fromEntries(Object.values(subgraphs).map((s) => [s.name, { schema: s.schema }])),
      internalSecret,
      logger,
      graphql: config.graphql,
      recordAgentTokenUse: agentTokenUseRecorder(new FederatedClient("agents", new LocalSubgraphTransport(subgraphs.agents.schema), "gateway")),
    });
    const authenticator = createAuthenticator({ config, signingKey, users: new LocalSubgraphTransport(subgraphs.users.schema), identity: new LocalSubgraphTransport(subgraphs.identity.schema), agents: new LocalSubgraphTransport(subgraphs.agents.schema), rateLimits });
    const gatewayClient = new InProcessGatewayClient(gateway, authenticator);
    const listener = { gateway: gatewayClient, logger, docsUrl: config.docsUrl, rateLimits, trustProxy: config.trustProxy, corsOrigins: config.corsOrigins, http: config.http, checkResponses: options.checkResponses, observeProblems: options.observeProblems };
    const apps = {
      platform: await buildPlatformApp({ ...listener, baseUrl: config.publicBaseUrl, jwks: signingKey.jwks(), webhooks: platformWebhooks(config), sandbox: config.sandbox, assistant: assistantFor(config) }),
      graphql: await buildGraphqlApp({ server: gateway.server, agentServer: gateway.agentServer, logger, authenticator, trustProxy: config.trustProxy, http: config.http, limits: config.graphql.limits, ide: config.graphql.ide, known: gateway.known }),
      identity: await buildIdentityApp({ ...listener, baseUrl: config.publicIdentityUrl, rpcUrl: config.publicRpcUrl, pintDomainSalt: config.pintDomainSalt, sandbox: config.sandbox }),
      rpc: await buildRpcApp({
        ...listener,
        baseUrl: config.publicRpcUrl,
        chainRpcUrls: config.chainRpcUrls,
        rateLimit: rateLimits.rules.rpc,
        rateLimiter: rateLimits.limiter,
      }),
    };
    const urls = { platform: "", graphql: "", identity: "", rpc: "", metrics: "" };
    let metrics: { url: string; close(): Promise<void> } | undefined;
    if (options.listen !== false) {
      const ports = { platform: config.port, graphql: config.graphqlPort, identity: config.identityPort, rpc: config.rpcPort };
      for (const key of ["platform", "graphql", "identity", "rpc"] as const) {
        urls[key] = await listen(apps[key], { name: key, port: ports[key], host: config.host, ...(key === "graphql" && { path: "/graphql" }) });
      }
      if (config.metricsPort !== undefined && servesOwnMetrics()) {
        metrics = await startMetricsServer({ port: config.metricsPort, host: config.host, logger });
        urls.metrics = metrics.url;
      }
    }
    for (const subgraph of Object.values(subgraphs)) subgraph.start();
    return {
      config,
      database,
      subgraphs,
      gateway,
      gatewayClient,
      apps,
      urls,
      shutdownTimeoutMs: config.shutdownTimeoutMs,
      async stop() {
        // every listener stops taking connections at once; each waits for its requests in flight
        await Promise.all([metrics?.close(), ...Object.values(apps).map((app) => app.close())]);
        await gateway.stop();
        for (const subgraph of Object.values(subgraphs)) await subgraph.stop();
        // writes the rate-limit units still counted in memory (PostgreSQL store)
        await rateLimits.limiter.close?.();
        await database.close();
        await tracing?.shutdown();
      },
    };
  } catch (error) {
    await database.close();
    await tracing?.shutdown();
    throw error;
  }
}
