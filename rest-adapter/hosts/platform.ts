import type { FastifyInstance } from "fastify";
import type { JSONWebKeySet } from "jose";
import type { Logger } from "../../lib/logger.ts";
import type { RateLimits } from "../../lib/rate-limit/rate-limits.ts";
import { buildHttpApp } from "../route-kit/app.ts";
import type { ProblemDetail } from "../route-kit/problem.ts";
import type { HttpSettings } from "../../lib/http.ts";
import { PLATFORM_CREDENTIAL_HEADERS } from "../../lib/auth/credential-headers.ts";
import type { CorsOrigins } from "../../lib/cors.ts";
import type { TrustProxy } from "../../lib/trust-proxy.ts";
import type { GatewayClient } from "../route-kit/gateway-client.ts";
import { ResponseChecker, type ResponseMismatchReport } from "../route-kit/response-check.ts";
import { buildOpenApiDocument, corsDescription } from "../route-kit/openapi.ts";
import { registerWebhooks, webhookDocumentation, type WebhookReceiver } from "../webhooks/webhooks.ts";
import { SANDBOX_TAG, type Route } from "../route-kit/route.ts";
import { healthRoutes } from "../routes/health.ts";
import { kycRoutes } from "../routes/kyc.ts";
import { onboardingRoutes } from "../routes/onboarding.ts";
import { phoneRoutes } from "../routes/phone.ts";
import { siweRoutes } from "../routes/siwe.ts";
import { personalAccessTokenRoutes, userRoutes } from "../routes/user.ts";
import { chatRoutes } from "../routes/chat.ts";
import { bankAccountRoutes, openBankingRoutes } from "../routes/bank-accounts.ts";
import { strategyRoutes } from "../routes/strategies.ts";
import { connectorRoutes } from "../routes/connectors.ts";
import { widgetDataRoute } from "../agent-runtime/widgets/widget-data.ts";
import { agentActions, agentTools } from "../agent-runtime/mcp/agent-tools.ts";
import { registerMcp } from "../agent-runtime/mcp/mcp-http.ts";
import type { Assistant } from "../agent-runtime/chat/assistant.ts";
import { chatTurnRoute, type ChatServices } from "../agent-runtime/chat/chat-turn.ts";
import { confirmChatActionRoute } from "../agent-runtime/chat/chat-action-confirm.ts";
import { OfflineAssistant } from "../agent-runtime/chat/offline-assistant.ts";
import { transactionRoutes } from "../routes/transactions.ts";
import { cardFundingRoutes } from "../routes/card-funding.ts";
import { cardSecureDetailsRoutes } from "../routes/card-secure-details.ts";
import { RESOURCE_ROUTES } from "../resources/resources.generated.ts";

/** Every route of the platform listener ({base_url}), one module per spec tag. */
export const platformRoutes: Route[] = [
  ...healthRoutes,
  ...userRoutes,
  ...personalAccessTokenRoutes,
  ...phoneRoutes,
  ...onboardingRoutes,
  ...kycRoutes,
  ...transactionRoutes,
  // the routes the resources' overlays hold (rest-adapter/resources/<entity>.ts), in file-name order
  ...RESOURCE_ROUTES(),
  ...cardFundingRoutes,
  ...cardSecureDetailsRoutes,
  ...openBankingRoutes,
  ...bankAccountRoutes,
  ...strategyRoutes,
  ...connectorRoutes,
  ...chatRoutes,
  ...siweRoutes,
  // composed of several calls each (rest-adapter/route-kit/route.ts, ComposedRoute)
  chatTurnRoute,
  confirmChatActionRoute,
  widgetDataRoute,
];

export interface ListenerOptions {
  gateway: GatewayClient;
  rateLimits?: RateLimits;
  logger: Logger;
  baseUrl: string;
  docsUrl: string;
  /** timeouts and load shedding (lib/http.ts) */
  http?: HttpSettings;
  /** TRUST_PROXY: proxies whose X-Forwarded-For names the client (per-address limits, the address sent to the gateway) */
  trustProxy?: TrustProxy;
  /** CORS_ORIGINS: the web origins whose pages may call the listener (lib/cors.ts) */
  corsOrigins?: CorsOrigins;
  /** tests: answers that differ from their documented responses (see ResponseChecker) */
  checkResponses?: ResponseMismatchReport;
  /** tests: every ProblemDetail answered (see HttpAppOptions.observeProblems) */
  observeProblems?: (problem: ProblemDetail) => void;
}

/** The platform host's /openapi.json: its routes and webhook receivers (sandbox routes only in sandbox mode). */
export function platformDocument(options: Pick<ListenerOptions, "baseUrl" | "docsUrl" | "corsOrigins">, routes: Route[], webhooks: WebhookReceiver[]): Record<string, unknown> {
  return buildOpenApiDocument({
    title: "Platform API",
    description:
      "The financial platform's API: end users' accounts and what they hold and do, from sign-up and KYC to cards, transactions and the agents that act for them, and the receivers of the providers' webhooks. Organisations, API keys and the outgoing events an organisation's webhook endpoints receive are documented by the identity host ({sis_url}/openapi.json, the events under `webhooks`).",
    notes: [corsDescription(options.corsOrigins ?? [])],
    serverUrl: options.baseUrl,
    docsUrl: options.docsUrl,
    routes: [...routes, ...webhooks.map(webhookDocumentation)],
  });
}

/**
 * `jwks`: the public keys of the platform signing key, served at `/.well-known/jwks.json` (they
 * verify SIWE session tokens). `sandbox`: SANDBOX; without it the Sandbox-tagged routes do not
 * exist (404 like any unknown path) and are not documented.
 */
export function buildPlatformApp(options: ListenerOptions & { jwks?: JSONWebKeySet; webhooks?: WebhookReceiver[]; sandbox?: boolean; assistant?: Assistant }): Promise<FastifyInstance> {
  const webhooks = options.webhooks ?? [];
  const routes = options.sandbox ? platformRoutes : platformRoutes.filter((route) => route.tag !== SANDBOX_TAG);
  const document = platformDocument(options, routes, webhooks);
  const [reads, writes] = [agentTools(routes), agentActions(routes)];
  // chat runs reads only; it may propose the agent writes, which the user confirms
  const services: ChatServices = { assistant: options.assistant ?? new OfflineAssistant(), tools: reads, actions: writes };
  return buildHttpApp({
    ...options,
    name: "platform",
    routes,
    services,
    credentialHeaders: PLATFORM_CREDENTIAL_HEADERS,
    document,
    extra: (app) => {
      // MCP is a protocol endpoint (JSON-RPC over Streamable HTTP), not a documented REST route: its tools are the routes
      registerMcp(app, { tools: [...reads, ...writes], gateway: options.gateway, baseUrl: options.baseUrl });
      registerWebhooks(app, webhooks, options.gateway, options.checkResponses && new ResponseChecker(options.checkResponses));
      const { jwks } = options;
      if (jwks) app.get("/.well-known/jwks.json", async (_request, reply) => reply.header("cache-control", "public, max-age=300").send(jwks));
    },
  });
}
