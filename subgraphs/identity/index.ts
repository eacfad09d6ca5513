import type { SubgraphClient } from "../../gateway/subgraph-client.ts";
import type { SigningKey } from "../../lib/auth/signing-key.ts";
import { supportedChainIds } from "../../lib/chains.ts";
import type { Config } from "../../lib/config.ts";
import type { Database } from "../../lib/db/database.ts";
import { buildFederatedSchema } from "../../lib/graphql/federation.ts";
import { subgraphHealth } from "../../lib/graphql/health.ts";
import type { Subgraph } from "../../lib/graphql/subgraph.ts";
import type { Logger } from "../../lib/logger.ts";
import type { RateLimits } from "../../lib/rate-limit/rate-limits.ts";
import { createIdentityDb } from "./db.ts";
import { EnvironmentResolver } from "./environments/environment.resolver.ts";
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

export type IdentitySubgraph = Subgraph & { services: IdentityServices };

/** Wiring: the identity service asks the users subgraph who owns a wallet (PINT exchange, revocation). */
export function connectIdentityToUsers(identity: Subgraph, users: SubgraphClient): void {
  (identity as IdentitySubgraph).services.users = users;
}

export async function createIdentitySubgraph(deps: { config: Config; database: Database; logger: Logger; signingKey: SigningKey; rateLimits: RateLimits }): Promise<IdentitySubgraph> {
  const { config } = deps;
  const db = createIdentityDb(deps.database);
  const services: IdentityServices = {
    db,
    logger: deps.logger,
    publicIdentityUrl: config.publicIdentityUrl,
    publicRpcUrl: config.publicRpcUrl,
    docsUrl: config.docsUrl,
    jwksPolicy: config.jwksPolicy,
    ...(config.identityBootstrap && { bootstrap: config.identityBootstrap }),
    dashboardIssuers: [...new Set(config.dashboardAuth.map((provider) => provider.issuer))],
    signingKey: deps.signingKey,
    pintDomainSalt: config.pintDomainSalt,
    supportedChainIds: supportedChainIds(config.chainRpcUrls),
    eip1271: new Eip1271Verifier(config.chainRpcUrls),
    rateLimiter: deps.rateLimits.limiter,
    pintExchangeRule: deps.rateLimits.rules.pint_exchange,
  };
  const health = subgraphHealth("identity", db);
  const resolvers = [OrganisationResolver, EnvironmentResolver, MemberResolver, ApiKeyResolver, UserLookupResolver, UserPintsResolver, PintResolver, PintAudienceResolver, health.resolver] as const;
  const instances = new Map<unknown, unknown>(resolvers.map((R) => [R, new R(services)]));
  const schema = await buildFederatedSchema(
    { resolvers, orphanedTypes: [IdentityUser, health.type], container: { get: (someClass) => instances.get(someClass) } },
    { User: { __resolveReference: resolveIdentityUserReference } },
  );
  // with no dashboard issuer configured no session can match a member, and there is nothing to attribute
  if (services.dashboardIssuers.length > 0) await attributeLegacyMembers(db, services.dashboardIssuers, deps.logger);
  // a fresh install has an organisation to administer before anything is served
  if (services.bootstrap) await applyBootstrap(db, services.bootstrap);
  return {
    name: "identity",
    schema,
    services,
    start: () => {},
    stop: () => db.$disconnect(),
  };
}
