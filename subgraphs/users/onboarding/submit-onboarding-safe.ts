import { getAddress, isAddressEqual, type Address } from "viem";
import { checksummedAddress } from "../../../lib/address.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import type { EnvironmentLimits } from "../../../lib/environment-limits.ts";
import type { UsersDb, UsersTx } from "../db.ts";
import { nextSafeCreationStatus } from "../wallets/safe-creation-status.ts";
import { deployingSafe, enqueueSafeDeployment, retrySafeDeployment, triggerSafeDeployment, type SafeDeploymentPayload } from "../wallets/safe-deployment.ts";
import { requireProvenWallet } from "../../../lib/owned-wallet.ts";
import { eoaProvenAt } from "../wallets/address-proof.ts";
import { lockUserWallets } from "../wallets/wallet-access.ts";
import { ACCEPTED_SAFE_VERSIONS, findOnboardingSafe, findPrimarySafe, plannedSafe, type OnboardingSafeView, type SafeWalletRow } from "./onboarding-safe.ts";
import type { SafeInspector } from "./safe-inspector.ts";
import type { OnboardingSafeMode } from "../../../lib/vocabulary/onboarding.ts";
import { safeCreationModeOf } from "./step-status.ts";

/**
 * user_signed_deploy: how long the deployment job leaves the user's own transaction to land before
 * it looks at the predicted address. The job completes when the Safe is there; if the user's
 * transaction never lands it deploys the same Safe itself (CREATE2: same owners, same address),
 * so a lost transaction cannot strand the user.
 */
export const USER_SIGNED_DEPLOY_GRACE_MS = 120_000;

export interface SubmitOnboardingSafeOptions {
  user_id: string;
  mode: OnboardingSafeMode;
  /** byo: the existing Safe, on the user's primary chain */
  safe_address?: string | null;
  /** user_signed_deploy: the hash of the deployment transaction the user sent */
  transaction_hash?: string | null;
  safeInspector: SafeInspector;
  /** Safe deployments count against the environment's ENVIRONMENT_LIMITS */
  limits: EnvironmentLimits;
  userSignedGraceMs?: number;
  now?: Date;
}

export interface SubmitOnboardingSafeResult {
  onboarding: OnboardingSafeView;
  /** a deployment job was enqueued (wake the queue; the REST answer may be 202) */
  enqueued: boolean;
}

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/** A deploying or deployed primary Safe cannot be replaced through onboarding. */
function assertSafeReplaceable(safe: SafeWalletRow | null): void {
  if (!safe) return;
  const status = safe.safe_creation_status;
  if (status === "completed" || status === null)
    throw appError("ONB-409-001", `The user's Safe ${safe.address ?? `(wallet ${safe.id})`} is already deployed; the Safe step is complete.`);
  if (status === "processing")
    throw appError("ONB-409-001", `A Safe deployment (event ${safe.safe_creation_event_id}) is in progress; wait for its result before changing the Safe.`);
}

async function loadForChange(tx: UsersTx, userId: string) {
  await lockUserWallets(tx, userId);
  const user = await tx.user.findUnique({
    where: { id: userId },
    select: { id: true, primary_eoa_address: true, primary_chain_id: true, onboarding_safe_mode: true },
  });
  if (!user) throw appError("USR-404-001");
  return { user, primary: await findPrimarySafe(tx, userId) };
}

async function recordMode(tx: UsersTx, userId: string, mode: OnboardingSafeMode): Promise<void> {
  await tx.user.update({ where: { id: userId }, data: { onboarding_safe_mode: mode } });
}

/**
 * POST /v0/user/me/onboarding/safe. Body `{ mode, safe_address?, transaction_hash? }`:
 * - `agent_create2`: (re)starts the platform's deployment through the deployment job: retries a
 *   failed primary Safe, triggers one when there is none; already deploying in this mode: no-op.
 * - `byo` with `safe_address`: checks the Safe on the primary chain (code, VERSION in
 *   ACCEPTED_SAFE_VERSIONS, the primary EOA among its owners) and makes it the primary Safe,
 *   `completed`. Without `safe_address`: only records the choice (step awaiting_user).
 * - `user_signed_deploy` with `transaction_hash`: records the user's deployment of the planned Safe
 *   (`config.deploy_transaction`); the primary Safe goes to `processing` and the deployment job
 *   confirms it. Without: only records the choice.
 * A field that does not belong to the mode: ONB-400-001. A primary Safe that is deploying or
 * deployed cannot be replaced: ONB-409-001. Wallet changes hold the user's wallet lock, so the
 * one-primary-Safe rule holds under concurrent requests.
 */
export async function submitOnboardingSafe(db: UsersDb, options: SubmitOnboardingSafeOptions): Promise<SubmitOnboardingSafeResult> {
  const { mode } = options;
  if (options.safe_address != null && mode !== "byo") throw appError("ONB-400-001", "safe_address is only accepted with mode byo.");
  if (options.transaction_hash != null && mode !== "user_signed_deploy")
    throw appError("ONB-400-001", "transaction_hash is only accepted with mode user_signed_deploy.");

  if (mode === "agent_create2") return submitAgentCreate2(db, options.user_id, options.limits);
  if (mode === "byo" && options.safe_address != null) return submitByo(db, { ...options, safe_address: options.safe_address });
  if (mode === "user_signed_deploy" && options.transaction_hash != null)
    return submitUserSignedDeploy(db, { ...options, transaction_hash: options.transaction_hash });
  return chooseMode(db, options.user_id, mode);
}

/** byo or user_signed_deploy without their payload: the user picks the mode and acts next. */
async function chooseMode(db: UsersDb, userId: string, mode: OnboardingSafeMode): Promise<SubmitOnboardingSafeResult> {
  return db.$transaction(async (tx) => {
    const { primary } = await loadForChange(tx, userId);
    assertSafeReplaceable(primary);
    await recordMode(tx, userId, mode);
    return { onboarding: await findOnboardingSafe(tx, { user_id: userId }), enqueued: false };
  });
}

async function submitAgentCreate2(db: UsersDb, userId: string, limits: EnvironmentLimits): Promise<SubmitOnboardingSafeResult> {
  return db.$transaction(async (tx) => {
    const { user, primary } = await loadForChange(tx, userId);
    // asking again while the platform deploys is harmless: nothing to do
    if (primary?.safe_creation_status === "processing" && safeCreationModeOf(primary) === "agent_create2")
      return { onboarding: await findOnboardingSafe(tx, { user_id: userId }), enqueued: false };
    assertSafeReplaceable(primary);
    const owner = getAddress(user.primary_eoa_address);
    if (primary) {
      await retrySafeDeployment(tx, primary, owner, limits);
      // the platform deploys now, not a transaction of the user's
      await tx.wallet.update({ where: { id: primary.id }, data: { safe_deployment_tx_hash: null } });
    } else {
      await triggerSafeDeployment(tx, { user_id: userId, chain_id: user.primary_chain_id, owner, owner_verified_at: await eoaProvenAt(tx, userId, owner), is_primary: true, limits });
    }
    await recordMode(tx, userId, "agent_create2");
    return { onboarding: await findOnboardingSafe(tx, { user_id: userId }), enqueued: true };
  });
}

async function submitByo(db: UsersDb, options: SubmitOnboardingSafeOptions & { safe_address: string }): Promise<SubmitOnboardingSafeResult> {
  const address = checksummedAddress(options.safe_address, ["safe_address"]);
  const user = await db.user.findUnique({ where: { id: options.user_id }, select: { primary_chain_id: true } });
  if (!user) throw appError("USR-404-001");
  // fail fast on a conflicting state before asking the chain
  assertSafeReplaceable(await findPrimarySafe(db, options.user_id));

  const chainId = user.primary_chain_id;
  const info = await options.safeInspector.inspect(chainId, address);
  if (!info) throw appError("ONB-400-002", `No Safe was found at ${address} on chain ${chainId}.`);
  if (!(ACCEPTED_SAFE_VERSIONS as readonly string[]).includes(info.version))
    throw appError("ONB-400-002", `The Safe runs version ${info.version}; accepted versions are ${ACCEPTED_SAFE_VERSIONS.join(", ")}.`);

  return db.$transaction(async (tx) => {
    const { user, primary } = await loadForChange(tx, options.user_id);
    assertSafeReplaceable(primary);
    if (user.primary_chain_id !== chainId) throw appError("ONB-409-001", "The user's primary chain changed while the Safe was checked; submit again.");
    const eoa = getAddress(user.primary_eoa_address);
    if (!info.owners.some((owner) => isAddressEqual(owner, eoa)))
      throw appError("ONB-400-002", `The user's primary EOA ${eoa} is not an owner of the Safe ${address}.`);
    // the Safe is adopted for being the primary EOA's: a squatter's unproven EOA must not take the owner's Safe
    const provenAt = await eoaProvenAt(tx, user.id, eoa);
    if (!provenAt) {
      const primaryEoa = { user_id: user.id, type: "EOA", role: "wallet", address: eoa, deleted_at: null };
      const wallet = await tx.wallet.findFirstOrThrow({ where: primaryEoa, orderBy: [{ is_primary: "desc" }, { id: "asc" }] });
      requireProvenWallet({ id: wallet.id, address_verified: false }, "adopt a Safe it owns (byo onboarding)");
    }

    if (primary) {
      // a failed deployment that never got an address is superseded by the submitted Safe
      const superseded = primary.address === null && primary.safe_creation_status === "failed";
      await tx.wallet.update({ where: { id: primary.id }, data: { is_primary: false, ...(superseded && { deleted_at: new Date() }) } });
    }
    const existing = await tx.wallet.findFirst({
      where: { user_id: user.id, type: "Safe", role: "wallet", address, chain_id: chainId, deleted_at: null },
      select: { id: true },
    });
    if (existing) await tx.wallet.update({ where: { id: existing.id }, data: { is_primary: true, safe_creation_status: "completed", address_verified_at: provenAt } });
    else await tx.wallet.create({ data: { user_id: user.id, type: "Safe", address, chain_id: chainId, is_primary: true, safe_creation_status: "completed", address_verified_at: provenAt } });
    await recordMode(tx, user.id, "byo");
    return { onboarding: await findOnboardingSafe(tx, { user_id: user.id }), enqueued: false };
  });
}

async function submitUserSignedDeploy(
  db: UsersDb,
  options: SubmitOnboardingSafeOptions & { transaction_hash: string },
): Promise<SubmitOnboardingSafeResult> {
  if (!TX_HASH.test(options.transaction_hash))
    throw validationError(["transaction_hash"], "Value error, expected a 32-byte hex transaction hash (0x + 64 hex digits)", options.transaction_hash);
  const txHash = options.transaction_hash.toLowerCase();
  const runAt = new Date((options.now ?? new Date()).getTime() + (options.userSignedGraceMs ?? USER_SIGNED_DEPLOY_GRACE_MS));

  return db.$transaction(async (tx) => {
    const { user, primary } = await loadForChange(tx, options.user_id);
    // the same submission again (a client retry): nothing new
    if (primary?.safe_creation_status === "processing" && primary.safe_deployment_tx_hash === txHash)
      return { onboarding: await findOnboardingSafe(tx, { user_id: user.id }), enqueued: false };
    assertSafeReplaceable(primary);

    const planned = plannedSafe(user);
    const underway = await deployingSafe(tx, user.id, planned.chainId);
    if (underway) throw appError("ONB-409-001", `A Safe deployment (event ${underway.safe_creation_event_id}) is in progress on chain ${planned.chainId}; wait for its result.`);
    const event_id = newId("sce");
    let walletId: number;
    if (primary) {
      const status = nextSafeCreationStatus(primary.safe_creation_status as "failed", "retry")!;
      const updated = await tx.wallet.update({
        where: { id: primary.id, safe_creation_status: "failed" },
        data: { safe_creation_status: status, safe_creation_event_id: event_id, safe_deployment_tx_hash: txHash },
      });
      walletId = updated.id;
    } else {
      const created = await tx.wallet.create({
        data: {
          user_id: user.id,
          type: "Safe",
          chain_id: planned.chainId,
          is_primary: true,
          safe_creation_status: nextSafeCreationStatus(null, "triggered"),
          safe_creation_event_id: event_id,
          safe_deployment_tx_hash: txHash,
          address_verified_at: await eoaProvenAt(tx, user.id, user.primary_eoa_address),
        },
      });
      walletId = created.id;
    }
    const payload: SafeDeploymentPayload = {
      wallet_id: walletId,
      event_id,
      chain_id: planned.chainId,
      owners: planned.owners as Address[],
      threshold: planned.threshold,
      salt_nonce: planned.saltNonce.toString(),
    };
    await enqueueSafeDeployment(tx, user.id, payload, { limits: options.limits, runAt });
    await recordMode(tx, user.id, "user_signed_deploy");
    return { onboarding: await findOnboardingSafe(tx, { user_id: user.id }), enqueued: true };
  });
}
