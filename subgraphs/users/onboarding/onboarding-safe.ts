import { encodeFunctionData, getAddress, type Address, type Hex } from "viem";
import { appError } from "../../../lib/errors/app-error.ts";
import type { UsersTx } from "../db.ts";
import { encodeSafeInitializer, predictSafeAddress } from "../safe/safe-address.ts";
import { SAFE_PROXY_FACTORY, SAFE_PROXY_FACTORY_ABI, safeSingletonFor } from "../safe/safe-contracts.ts";
import { saltNonceFor, type SafeDeploymentPayload } from "../wallets/safe-deployment.ts";
import type { OnboardingSafeMode, StepStatus } from "../../../lib/vocabulary/onboarding.ts";
import { isStepRequired, onboardingSafeMode, safeCreationModeOf, safeStepStatus } from "./step-status.ts";

/** Safe versions a brought-your-own Safe may run: the two current canonical releases. */
export const ACCEPTED_SAFE_VERSIONS = ["1.3.0", "1.4.1"] as const;

export interface DeployTransaction {
  chain_id: number;
  to: Address;
  data: Hex;
  /** wei, decimal string */
  value: string;
}

export interface AgentCreate2Config {
  mode: "agent_create2";
  safe_address: Address | null;
  owners: Address[];
  threshold: number | null;
  salt_nonce: string | null;
  event_id: string | null;
}

export interface UserSignedDeployConfig {
  mode: "user_signed_deploy";
  safe_address: Address | null;
  owners: Address[];
  threshold: number | null;
  factory_address: Address;
  singleton_address: Address;
  initializer: Hex | null;
  salt_nonce: string | null;
  deploy_transaction: DeployTransaction | null;
  transaction_hash: string | null;
}

export interface ByoConfig {
  mode: "byo";
  safe_address: string | null;
  accepted_versions: string[];
  required_owner: string;
}

export type OnboardingSafeConfig = AgentCreate2Config | UserSignedDeployConfig | ByoConfig;

export type SafeWalletRow = NonNullable<Awaited<ReturnType<typeof findPrimarySafe>>>;

export interface OnboardingSafeView {
  mode: OnboardingSafeMode;
  config: OnboardingSafeConfig;
  wallet: SafeWalletRow | null;
  chain_id: number | null;
  required: boolean;
  step_status: StepStatus;
}

export interface OnboardingUser {
  id: string;
  primary_eoa_address: string;
  primary_chain_id: number;
  onboarding_safe_mode: string | null;
}

/** The user's primary Safe (one per user, spec 2.3), whatever its creation status. */
export function findPrimarySafe(db: UsersTx, userId: string) {
  return db.wallet.findFirst({ where: { user_id: userId, type: "Safe", role: "wallet", is_primary: true, deleted_at: null } });
}

/** The Safe a deployment for this user creates: owner the primary EOA, threshold 1, salt from user and chain. */
export function plannedSafe(user: Pick<OnboardingUser, "id" | "primary_eoa_address" | "primary_chain_id">) {
  const chainId = user.primary_chain_id;
  const owners = [getAddress(user.primary_eoa_address)];
  const saltNonce = saltNonceFor(user.id, chainId);
  return { chainId, owners, threshold: 1, saltNonce, address: predictSafeAddress({ owners, threshold: 1, saltNonce, chainId }) };
}

async function agentCreate2Config(db: UsersTx, user: OnboardingUser, safe: SafeWalletRow | null): Promise<AgentCreate2Config> {
  if (safe?.safe_creation_event_id) {
    // the deployment as it was enqueued: the primary EOA may have changed since
    const job = await db.job.findUnique({ where: { key: safe.safe_creation_event_id }, select: { payload: true } });
    const payload = job?.payload as SafeDeploymentPayload | undefined;
    if (payload) {
      return {
        mode: "agent_create2",
        safe_address:
          (safe.address as Address | null) ??
          predictSafeAddress({ owners: payload.owners, threshold: payload.threshold, saltNonce: BigInt(payload.salt_nonce), chainId: payload.chain_id }),
        owners: payload.owners,
        threshold: payload.threshold,
        salt_nonce: payload.salt_nonce,
        event_id: safe.safe_creation_event_id,
      };
    }
  }
  const planned = plannedSafe(user);
  return {
    mode: "agent_create2",
    safe_address: (safe?.address as Address | null | undefined) ?? planned.address,
    owners: planned.owners,
    threshold: planned.threshold,
    salt_nonce: planned.saltNonce.toString(),
    event_id: safe?.safe_creation_event_id ?? null,
  };
}

/** What the user signs and sends: SafeProxyFactory.createProxyWithNonce for the planned Safe. */
function userSignedDeployConfig(user: OnboardingUser, safe: SafeWalletRow | null): UserSignedDeployConfig {
  const planned = plannedSafe(user);
  const singleton = safeSingletonFor(planned.chainId);
  const initializer = encodeSafeInitializer({ owners: planned.owners, threshold: planned.threshold });
  const data = encodeFunctionData({ abi: SAFE_PROXY_FACTORY_ABI, functionName: "createProxyWithNonce", args: [singleton, initializer, planned.saltNonce] });
  return {
    mode: "user_signed_deploy",
    safe_address: (safe?.address as Address | null | undefined) ?? planned.address,
    owners: planned.owners,
    threshold: planned.threshold,
    factory_address: SAFE_PROXY_FACTORY,
    singleton_address: singleton,
    initializer,
    salt_nonce: planned.saltNonce.toString(),
    deploy_transaction: { chain_id: planned.chainId, to: SAFE_PROXY_FACTORY, data, value: "0" },
    transaction_hash: safe?.safe_deployment_tx_hash ?? null,
  };
}

/**
 * GET /v0/user/me/onboarding/safe (spec 4.2): the Safe step as it stands, without `_links`. The
 * wallet is the primary Safe when it belongs to the mode shown (a failed Safe of another mode is
 * not the wallet of the mode the user switched to).
 */
export async function findOnboardingSafe(db: UsersTx, options: { user_id: string }): Promise<OnboardingSafeView> {
  const user = await db.user.findUnique({
    where: { id: options.user_id },
    select: { id: true, primary_eoa_address: true, primary_chain_id: true, onboarding_safe_mode: true },
  });
  if (!user) throw appError("USR-404-001");
  const primary = await findPrimarySafe(db, user.id);
  const mode = onboardingSafeMode(user.onboarding_safe_mode, primary);
  const safe = primary && safeCreationModeOf(primary) === mode ? primary : null;
  const step_status = safeStepStatus(mode, primary);

  let config: OnboardingSafeConfig;
  if (mode === "agent_create2") config = await agentCreate2Config(db, user, safe);
  else if (mode === "user_signed_deploy") config = userSignedDeployConfig(user, safe);
  else config = { mode: "byo", safe_address: safe?.address ?? null, accepted_versions: [...ACCEPTED_SAFE_VERSIONS], required_owner: getAddress(user.primary_eoa_address) };

  return { mode, config, wallet: safe, chain_id: user.primary_chain_id, required: isStepRequired(step_status), step_status };
}
