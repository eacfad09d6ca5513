import type { SigningKey } from "../../lib/auth/signing-key.ts";
import { supportedChainIds } from "../../lib/chains.ts";
import { requireSafeDeployer, type Config } from "../../lib/config.ts";
import type { Database } from "../../lib/db/database.ts";
import { buildFederatedSchema } from "../../lib/graphql/federation.ts";
import type { Subgraph } from "../../lib/graphql/subgraph.ts";
import { JobQueue } from "../../lib/jobs/job-queue.ts";
import type { Logger } from "../../lib/logger.ts";
import { CliConfigResolver } from "./cli/cli-config.resolver.ts";
import { createUsersDb } from "./db.ts";
import { apiKeyFieldGuard } from "./user/api-key-field-guard.ts";
import { usersHealth } from "./health/health.resolver.ts";
import { KycResolver } from "./kyc/kyc.resolver.ts";
import { KycProviderEventResolver } from "./kyc/kyc-provider-event.resolver.ts";
import { OnboardingResolver } from "./onboarding/onboarding.resolver.ts";
import { RpcSafeInspector } from "./onboarding/safe-inspector.ts";
import { derivePhoneCodeKey } from "./phone/phone-code-key.ts";
import { PhoneResolver } from "./phone/phone.resolver.ts";
import { PregeneratedWalletResolver } from "./pregenerated/pregenerated.resolver.ts";
import { PrincipalResolver } from "./principal/principal.resolver.ts";
import { createKycProvider, createSmsSender } from "./providers.ts";
import { ChainSafeDeployer } from "./safe/chain-safe-deployer.ts";
import type { SafeDeployer } from "./safe/safe-deployer.ts";
import { SandboxSafeDeployer } from "./safe/sandbox-safe-deployer.ts";
import { SiweResolver } from "./siwe/siwe.resolver.ts";
import type { UsersServices } from "./services.ts";
import { PersonalAccessTokenResolver } from "./tokens/personal-access-token.resolver.ts";
import { resolveUserReference, UserResolver } from "./user/user.resolver.ts";
import { safeDeploymentHandler, SAFE_DEPLOYMENT_JOB } from "./wallets/safe-deployment.ts";
import { WalletResolver } from "./wallets/wallet.resolver.ts";
import { Wallet } from "./types/wallet.ts";

export interface UsersSubgraphDeps {
  config: Config;
  database: Database;
  logger: Logger;
  signingKey: SigningKey;
  /** tests swap the deployer to control timing and failures */
  safeDeployer?: SafeDeployer;
}

function createSafeDeployer(config: Config): SafeDeployer {
  if (requireSafeDeployer(config) === "chain") return new ChainSafeDeployer({ rpcUrls: config.chainRpcUrls, deployerKey: config.safeDeployerKey! });
  const failures = new Set(config.safeSandboxFailures);
  return new SandboxSafeDeployer({
    delayMs: config.safeDeployDelayMs,
    fail: (request) =>
      failures.has("*") || request.owners.some((owner) => failures.has(owner.toLowerCase())) ? "sandbox: deployment configured to fail" : undefined,
  });
}

export async function createUsersSubgraph(deps: UsersSubgraphDeps): Promise<Subgraph & { services: UsersServices }> {
  const { config, logger } = deps;
  const db = createUsersDb(deps.database);
  const deployer = deps.safeDeployer ?? createSafeDeployer(config);
  const jobs = new JobQueue({
    db,
    schema: "users",
    logger: logger.child({ subgraph: "users" }),
    handlers: { [SAFE_DEPLOYMENT_JOB]: safeDeploymentHandler(db, deployer) },
  });
  const siweProvider = config.authProviders.find((p) => p.name === "siwe");
  const services: UsersServices = {
    db,
    jobs,
    logger,
    supportedChainIds: supportedChainIds(config.chainRpcUrls),
    environmentLimits: config.environmentLimits,
    chainRpcUrls: config.chainRpcUrls,
    kyc: createKycProvider(config),
    sms: createSmsSender(config, logger),
    phoneCodeKey: derivePhoneCodeKey({ signingKeyJwk: config.signingKey, internalSecret: config.internalSecret }),
    safeInspector: new RpcSafeInspector(config.chainRpcUrls),
    signingKey: deps.signingKey,
    publicBaseUrl: config.publicBaseUrl,
    cliDebugDefault: config.cliDebugDefault,
    ...(config.identityBootstrap && { defaultOrganisationId: config.identityBootstrap.organisation.id }),
    ...(siweProvider && {
      siwe: {
        domain: new URL(config.publicBaseUrl).host,
        issuer: siweProvider.issuer,
        baseUrl: config.publicBaseUrl,
        ...(siweProvider.audience !== undefined && { audience: siweProvider.audience }),
      },
    }),
  };
  const health = usersHealth(db);
  const resolvers = [UserResolver, WalletResolver, PersonalAccessTokenResolver, PrincipalResolver, CliConfigResolver, ...health.resolvers, KycResolver, KycProviderEventResolver, PhoneResolver, OnboardingResolver, SiweResolver, PregeneratedWalletResolver] as const;
  const instances = new Map<unknown, unknown>(resolvers.map((R) => [R, new R(services)]));
  const schema = await buildFederatedSchema(
    { resolvers, orphanedTypes: [Wallet], globalMiddlewares: [apiKeyFieldGuard], container: { get: (someClass) => instances.get(someClass) } },
    { User: { __resolveReference: resolveUserReference(services) } },
  );
  return {
    name: "users",
    schema,
    services,
    start: () => jobs.start(),
    stop: async () => {
      await jobs.stop();
      await db.$disconnect();
    },
  };
}
