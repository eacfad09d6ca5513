import type { SubgraphClient } from "../../gateway/subgraph-client.ts";
import type { SigningKey } from "../../lib/auth/signing-key.ts";
import type { IdentityBootstrap } from "../../lib/config.ts";
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
  /** signs PINT JWTs (SIGNING_KEY); its public keys are served at {sis_url}/.well-known/jwks.json */
  signingKey: SigningKey;
  /** chains a mandate's EIP-712 domain may name */
  supportedChainIds: readonly number[];
  /** EIP-1271 checks of Safe-signed mandates through CHAIN_RPC_URLS */
  eip1271: Eip1271Verifier;
  /** PINT exchanges per API key (`pint_exchange` rule of RATE_LIMITS) */
  rateLimiter: RateLimiter;
  pintExchangeRule: RateLimitRule;
  /** the users subgraph (wallet owners), handed over at wiring time: see connectIdentityToUsers */
  users?: SubgraphClient;
}
