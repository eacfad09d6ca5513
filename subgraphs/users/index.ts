import { supportedChainIds } from "../../lib/chains.ts";
import { requireSafeDeployer, type Config } from "../../lib/config.ts";
import { defineSubgraph, type PlatformDeps } from "../../lib/graphql/define-subgraph.ts";
import { JobQueue } from "../../lib/jobs/job-queue.ts";
import { CliConfigResolver } from "./cli/cli-config.resolver.ts";
import { createUsersDb } from "./db.ts";
import { guardUserFieldsFromApiKeys } from "./user/api-key-field-guard.ts";
import { usersHealth } from "./health/health.resolver.ts";
import { KycResolver } from "./kyc/kyc.resolver.ts";
import { KycProviderEventResolver } from "./kyc/kyc-provider-event.resolver.ts";
import { OnboardingResolver } from "./onboarding/onboarding.resolver.ts";
import { OutboxPeerResolver, UserEnvironmentsResolver } from "./outbox/outbox-peer.resolver.ts";
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
import { OwnedWalletResolver } from "./wallets/owned-wallet.resolver.ts";
import { AccountHolderResolver } from "./user/account-holder.resolver.ts";
import { resolveWalletReference, WalletResolver } from "./wallets/wallet.resolver.ts";
import { Wallet } from "./types/wallet.ts";

export interface UsersSubgraphDeps extends PlatformDeps {
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

function usersServices(deps: UsersSubgraphDeps): UsersServices {
  const { config, logger } = deps;
  const db = createUsersDb(deps.database);
  const deployer = deps.safeDeployer ?? createSafeDeployer(config);
  const jobs = new JobQueue({
    db,
    schema: "users",
    logger: logger.child({ subgraph: "users" }),
    notifications: deps.database,
    leaseMs: config.jobLeaseMs,
    handlers: { [SAFE_DEPLOYMENT_JOB]: safeDeploymentHandler(db, deployer) },
  });
  const siweProvider = config.authProviders.find((p) => p.name === "siwe");
  return {
    db,
    jobs,
    logger,
    supportedChainIds: supportedChainIds(config.chainRpcUrls),
    environmentLimits: config.environmentLimits,
    registrationProof: config.registrationProof,
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
}

/** Users, wallets, onboarding, KYC, phone, sign-in with Ethereum, PATs: the platform's own people and their keys. */
export const usersSubgraph = defineSubgraph({
  name: "users",
  peers: [],
  services: (deps: UsersSubgraphDeps) => usersServices(deps),
  resolvers: [UserResolver, WalletResolver, PersonalAccessTokenResolver, PrincipalResolver, CliConfigResolver, KycResolver, KycProviderEventResolver, PhoneResolver, OnboardingResolver, SiweResolver, PregeneratedWalletResolver, OwnedWalletResolver, AccountHolderResolver, OutboxPeerResolver, UserEnvironmentsResolver],
  orphanedTypes: [Wallet],
  guardSchema: guardUserFieldsFromApiKeys,
  references: (services) => ({ User: { __resolveReference: resolveUserReference(services) }, Wallet: { __resolveReference: resolveWalletReference(services) } }),
  // the users subgraph owns Query.health (see usersHealth)
  health: (services) => usersHealth(services.db),
  start: (services) => services.jobs.start(),
  stop: (services) => services.jobs.stop(),
});
