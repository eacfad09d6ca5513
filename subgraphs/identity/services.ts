import type { Hex } from "viem";
import type { JwksUriPolicy } from "../../lib/auth/jwks-fetch.ts";
import type { CardDataCipher } from "../../lib/crypto/card-data-cipher.ts";
import type { PublicUrlPolicy } from "../../lib/net/public-url.ts";
import type { SigningKey } from "../../lib/auth/signing-key.ts";
import type { IdentityBootstrap } from "../../lib/config.ts";
import type { FederatedClient } from "../../lib/graphql/federated-client.ts";
import type { WebhookQueueStats } from "./webhook-delivery/delivery-job.ts";
import type { JobQueue } from "../../lib/jobs/job-queue.ts";
import type { Logger } from "../../lib/logger.ts";
import type { RateLimiter, RateLimitRule } from "../../lib/rate-limit/rate-limiter.ts";
import type { IdentityDb } from "./db.ts";
import type { Eip1271Verifier } from "./pints/signature.ts";

/** What the identity subgraph's resolvers need, built once at start and injected. */
export interface IdentityServices {
  db: IdentityDb;
  logger: Logger;
  /** {sis_url} and {rpc_url}, for key links */
  publicIdentityUrl: string;
  publicRpcUrl: string;
  docsUrl: string;
  bootstrap?: IdentityBootstrap;
  /** DASHBOARD_AUTH issuers: members are keyed on issuer and subject */
  dashboardIssuers: readonly string[];
  /** signs PINT JWTs (SIGNING_KEY); its public keys are served at {sis_url}/.well-known/jwks.json */
  signingKey: SigningKey;
  /** the `salt` of the mandates' EIP-712 domain: names this deployment (PINT_DOMAIN_SALT) */
  pintDomainSalt: Hex;
  /** chains a mandate's EIP-712 domain may name */
  supportedChainIds: readonly number[];
  /** EIP-1271 checks of Safe-signed mandates through CHAIN_RPC_URLS */
  eip1271: Eip1271Verifier;
  /** PINT exchanges per API key (`pint_exchange` rule of RATE_LIMITS) */
  rateLimiter: RateLimiter;
  pintExchangeRule: RateLimitRule;
  /** where an environment's `jwks_uri` may point (JWKS_ALLOW_LOOPBACK_HTTP) */
  jwksPolicy: JwksUriPolicy;
  /** seals webhook endpoints' signing secrets (CARD_DATA_KEY, like finance's card data) */
  webhookSecretCipher: CardDataCipher;
  /** where a webhook endpoint's `url` may point (WEBHOOK_ALLOW_LOOPBACK) */
  webhookUrlPolicy: PublicUrlPolicy;
  /** SANDBOX: the sandbox's test events (events/sandbox-event.ts) exist */
  sandbox: boolean;
  /** the users subgraph, its peer: who owns a wallet (pints/wallet-owners.ts) */
  users: FederatedClient;
  /** the identity service's durable jobs: the event relay (events/event-relay.ts) */
  jobs: JobQueue;
  /** webhook deliveries (webhook-delivery/delivery-job.ts), on the same table, claimed by a queue of their own */
  deliveryJobs: JobQueue;
  /** the delivery queue's depth and age, for /metrics */
  webhookQueueStats: () => Promise<WebhookQueueStats>;
  /** set while started: takes webhookQueueStats off /metrics */
  stopWebhookMetrics?: () => void;
}
