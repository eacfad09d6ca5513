import { supportedChainIds } from "../../lib/chains.ts";
import { CardDataCipher } from "../../lib/crypto/card-data-cipher.ts";
import { defineSubgraph } from "../../lib/graphql/define-subgraph.ts";
import { JobQueue } from "../../lib/jobs/job-queue.ts";
import { registerWebhookQueue } from "../../lib/metrics.ts";
import { OUTBOX_PRODUCERS, peerOutbox, peerUserEnvironments } from "../../lib/outgoing-events.ts";
import { createIdentityDb } from "./db.ts";
import { EnvironmentResolver } from "./environments/environment.resolver.ts";
import { eventRelay, EVENT_RELAY_JOB } from "./events/event-relay.ts";
import { OrganisationEventResolver } from "./events/organisation-event.resolver.ts";
import { SandboxEventResolver } from "./events/sandbox-event.resolver.ts";
import { ApiKeyResolver } from "./keys/api-key.resolver.ts";
import { UserLookupResolver } from "./lookup/user-lookup.resolver.ts";
import { resolveIdentityUserReference, UserPintsResolver } from "./lookup/user-pints.resolver.ts";
import { MemberResolver } from "./members/member.resolver.ts";
import { applyBootstrap } from "./organisations/bootstrap.ts";
import { attributeLegacyMembers } from "./organisations/member-issuers.ts";
import { OrganisationResolver } from "./organisations/organisation.resolver.ts";
import { PintAudienceResolver } from "./pints/audience.resolver.ts";
import { PintResolver } from "./pints/pint.resolver.ts";
import { Eip1271Verifier } from "./pints/signature.ts";
import type { IdentityServices } from "./services.ts";
import { IdentityUser } from "./types/user.ts";
import { webhookDelivery, WEBHOOK_DELIVERY_JOB } from "./webhook-delivery/delivery-job.ts";
import { webhookSender } from "./webhook-delivery/send-webhook.ts";
import { WebhookEndpointResolver } from "./webhook-endpoints/webhook-endpoint.resolver.ts";

/**
 * The identity service: organisations, environments, members, API keys, webhook endpoints, user
 * lookup and PINTs.
 * It asks the users subgraph who owns a wallet (PINT exchange and revocation) and the producers
 * (users, finance, agents) for their outgoing events, and never reads their tables.
 */
export const identitySubgraph = defineSubgraph({
  name: "identity",
  peers: ["users", "finance", "agents"],
  services: ({ config, database, logger, signingKey, rateLimits }, peers): IdentityServices => {
    const db = createIdentityDb(database);
    const log = logger.child({ subgraph: "identity" });
    // one outbox per producer subgraph, each a peer; a producer joins by being listed in OUTBOX_PRODUCERS
    const sources = OUTBOX_PRODUCERS.map((producer) => peerOutbox(producer, peers[producer]));
    const webhookSecretCipher = CardDataCipher.load(config.cardDataKey, config.dataDir);
    const delivery = webhookDelivery({ db, cipher: webhookSecretCipher, send: webhookSender(config.webhookUrlPolicy), logger: log });
    const queue = { db, schema: "identity", logger: log, leaseMs: config.jobLeaseMs, notifications: database };
    const relay = eventRelay({ db, sources, environments: peerUserEnvironments(peers.users), logger: log });
    const jobs = new JobQueue({ ...queue, kinds: [EVENT_RELAY_JOB], standing: [EVENT_RELAY_JOB], handlers: { [EVENT_RELAY_JOB]: relay } });
    // deliveries on a queue of their own (the same table): a pass waiting on a slow receiver (up to 10 s) does not hold up the relay
    const deliveryJobs = new JobQueue({ ...queue, kinds: [WEBHOOK_DELIVERY_JOB], standing: [WEBHOOK_DELIVERY_JOB], handlers: { [WEBHOOK_DELIVERY_JOB]: delivery } });
    return {
      db,
      logger,
      publicIdentityUrl: config.publicIdentityUrl,
      publicRpcUrl: config.publicRpcUrl,
      docsUrl: config.docsUrl,
      jwksPolicy: config.jwksPolicy,
      webhookSecretCipher,
      webhookUrlPolicy: config.webhookUrlPolicy,
      sandbox: config.sandbox,
      ...(config.identityBootstrap && { bootstrap: config.identityBootstrap }),
      dashboardIssuers: [...new Set(config.dashboardAuth.map((provider) => provider.issuer))],
      signingKey,
      pintDomainSalt: config.pintDomainSalt,
      supportedChainIds: supportedChainIds(config.chainRpcUrls),
      eip1271: new Eip1271Verifier(config.chainRpcUrls),
      rateLimiter: rateLimits.limiter,
      pintExchangeRule: rateLimits.rules.pint_exchange,
      users: peers.users,
      jobs,
      deliveryJobs,
      webhookQueueStats: delivery.queueStats,
    };
  },
  resolvers: [OrganisationResolver, OrganisationEventResolver, SandboxEventResolver, EnvironmentResolver, MemberResolver, ApiKeyResolver, WebhookEndpointResolver, UserLookupResolver, UserPintsResolver, PintResolver, PintAudienceResolver],
  orphanedTypes: [IdentityUser],
  references: () => ({ User: { __resolveReference: resolveIdentityUserReference } }),
  async prepare(services) {
    // with no dashboard issuer configured no session can match a member, and there is nothing to attribute
    if (services.dashboardIssuers.length > 0) await attributeLegacyMembers(services.db, services.dashboardIssuers, services.logger);
    // a fresh install has an organisation to administer before anything is served
    if (services.bootstrap) await applyBootstrap(services.db, services.bootstrap);
  },
  start: (services) => {
    services.jobs.start();
    services.deliveryJobs.start();
    services.stopWebhookMetrics = registerWebhookQueue(services.webhookQueueStats);
  },
  stop: async (services) => {
    services.stopWebhookMetrics?.();
    await Promise.all([services.jobs.stop(), services.deliveryJobs.stop()]);
  },
});
