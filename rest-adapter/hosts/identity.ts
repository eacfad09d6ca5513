import type { FastifyInstance } from "fastify";
import type { Hex } from "viem";
import { buildHttpApp } from "../route-kit/app.ts";
import { IDENTITY_CREDENTIAL_HEADERS } from "../../lib/auth/credential-headers.ts";
import { buildOpenApiDocument, corsDescription } from "../route-kit/openapi.ts";
import type { ListenerOptions } from "./platform.ts";
import { SANDBOX_TAG, type Route } from "../route-kit/route.ts";
import { environmentRoutes } from "../routes/environments.ts";
import { eventRoutes } from "../routes/events.ts";
import { healthRoutes } from "../routes/health.ts";
import { keyRoutes } from "../routes/keys.ts";
import { memberRoutes } from "../routes/members.ts";
import { organisationRoutes } from "../routes/organisations.ts";
import { documentPintDomainSalt, pintRoutes } from "../routes/pints.ts";
import { userLookupRoutes } from "../routes/user-lookup.ts";
import { webhookEndpointRoutes } from "../routes/webhook-endpoints.ts";
import { eventPayloadComponents, outgoingEventWebhooks } from "../webhooks/outgoing-events.ts";

/** Every route of the identity listener ({sis_url}). */
export const identityRoutes: Route[] = [...healthRoutes, ...userLookupRoutes, ...organisationRoutes, ...eventRoutes, ...memberRoutes, ...environmentRoutes, ...keyRoutes, ...webhookEndpointRoutes, ...pintRoutes];

/** The identity host's /openapi.json: its routes, with this deployment's PINT domain salt, and the outgoing events under `webhooks`. */
export function identityDocument(options: Pick<ListenerOptions, "baseUrl" | "docsUrl" | "corsOrigins"> & { pintDomainSalt: Hex }, routes: Route[]): Record<string, unknown> {
  return buildOpenApiDocument({
    title: "Identity service",
    description:
      "The identity service (spec 2.5, 2.6, 4.6, 4.7, 5.2, 7.3): what an organisation administers from its dashboard, what its servers call with API keys, and the PINT exchange. " +
      "The outgoing events your webhook endpoints receive are under `webhooks`, one per event type, with their Standard Webhooks headers and the envelope each is POSTed in; their payload schemas are in `components.schemas`.",
    notes: [corsDescription(options.corsOrigins ?? [])],
    serverUrl: options.baseUrl,
    errorStyle: "identity",
    docsUrl: options.docsUrl,
    routes: routes.map((route) => documentPintDomainSalt(route, options.pintDomainSalt)),
    webhooks: outgoingEventWebhooks(),
    schemas: eventPayloadComponents(),
  });
}

/**
 * The identity host: Bearer credentials, and errors in the identity style (`{docs_url}/errors/<type name>`).
 * `pintDomainSalt` (PINT_DOMAIN_SALT) is written into the exchange's description, so integrators read this deployment's value.
 * `sandbox`: SANDBOX; without it the Sandbox-tagged routes do not exist and are not documented, as on the platform host.
 */
export function buildIdentityApp(options: ListenerOptions & { rpcUrl: string; pintDomainSalt: Hex; sandbox?: boolean }): Promise<FastifyInstance> {
  const routes = options.sandbox ? identityRoutes : identityRoutes.filter((route) => route.tag !== SANDBOX_TAG);
  const document = identityDocument(options, routes);
  return buildHttpApp({
    ...options,
    name: "identity",
    routes,
    errorStyle: "identity",
    credentialHeaders: IDENTITY_CREDENTIAL_HEADERS,
    document,
  });
}
