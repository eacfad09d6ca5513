import { hexToBigInt, keccak256, stringToHex, type Address } from "viem";
import { JobQueue, type JobHandler, type JobRow } from "../../../lib/jobs/job-queue.ts";
import { newId } from "../../../lib/ids.ts";
import type { UsersDb, UsersTx } from "../db.ts";
import type { EnvironmentLimits } from "../../../lib/environment-limits.ts";
import { recordSafeDeployment } from "../limits/environment-limits.ts";
import type { SafeDeployer } from "../safe/safe-deployer.ts";
import { emitEvent } from "../outbox/outgoing-events.ts";
import { nextSafeCreationStatus } from "./safe-creation-status.ts";

export const SAFE_DEPLOYMENT_JOB = "safe_deployment";

export interface SafeDeploymentPayload {
  wallet_id: number;
  event_id: string;
  chain_id: number;
  owners: Address[];
  threshold: number;
  /** decimal string: JSON has no uint256 */
  salt_nonce: string;
}

/** One Safe per user and chain: the salt is derived from both, so every retry predicts the same address. */
export function saltNonceFor(userId: string, chainId: number): bigint {
  return hexToBigInt(keccak256(stringToHex(`${userId}:${chainId}`)));
}

/**
 * Enqueues a deployment job in the caller's transaction, counted against the environment's
 * `safe_deployments_per_day` (429 WAL-429-001 over it: the transaction, and so the wallet change,
 * rolls back).
 */
export async function enqueueSafeDeployment(tx: UsersTx, user_id: string, payload: SafeDeploymentPayload, options: { limits: EnvironmentLimits; runAt?: Date }): Promise<void> {
  await recordSafeDeployment(tx, { event_id: payload.event_id, user_id, wallet_id: payload.wallet_id, chain_id: payload.chain_id }, options.limits);
  await JobQueue.enqueue(tx, "users", { id: newId("job"), kind: SAFE_DEPLOYMENT_JOB, key: payload.event_id, payload, ...(options.runAt && { runAt: options.runAt }) });
}

/**
 * The user's Safe deployment under way on the chain, if any. At most one exists (the unique
 * partial index wallets_one_deploying_safe_per_chain), and callers hold the user's wallet lock.
 */
export function deployingSafe(tx: UsersTx, user_id: string, chain_id: number) {
  return tx.wallet.findFirst({ where: { user_id, chain_id, type: "Safe", role: "wallet", safe_creation_status: "processing", deleted_at: null } });
}

/**
 * Creates the Safe wallet row in `processing` with a fresh `safe_creation_event_id` and enqueues
 * its deployment, in the caller's transaction (spec 3.2: registration or primary change). A
 * deployment already under way for the user on that chain is reused (made primary if asked):
 * one job per user and chain at a time.
 */
export async function triggerSafeDeployment(
  tx: UsersTx,
  input: { user_id: string; chain_id: number; owner: Address; /** the owner's proof: the Safe it owns is proven with it */ owner_verified_at: Date | null; is_primary: boolean; limits: EnvironmentLimits },
) {
  const underway = await deployingSafe(tx, input.user_id, input.chain_id);
  if (underway) return input.is_primary && !underway.is_primary ? tx.wallet.update({ where: { id: underway.id }, data: { is_primary: true } }) : underway;
  const event_id = newId("sce");
  const wallet = await tx.wallet.create({
    data: {
      user_id: input.user_id,
      type: "Safe",
      chain_id: input.chain_id,
      is_primary: input.is_primary,
      safe_creation_status: nextSafeCreationStatus(null, "triggered"),
      safe_creation_event_id: event_id,
      address_verified_at: input.owner_verified_at,
    },
  });
  await enqueueSafeDeployment(
    tx,
    input.user_id,
    { wallet_id: wallet.id, event_id, chain_id: input.chain_id, owners: [input.owner], threshold: 1, salt_nonce: saltNonceFor(input.user_id, input.chain_id).toString() },
    { limits: input.limits },
  );
  return wallet;
}

/**
 * failed → processing (spec 3.2) under a new event id; the address stays the same. When another
 * Safe of the user is already deploying on that chain, that deployment is the answer and the
 * failed one stays as it is. Null when the wallet is not `failed`.
 */
export async function retrySafeDeployment(
  tx: UsersTx,
  wallet: { id: number; user_id: string; chain_id: number; safe_creation_status: string | null },
  owner: Address,
  limits: EnvironmentLimits,
) {
  const status = nextSafeCreationStatus(wallet.safe_creation_status as "failed", "retry");
  if (status === null) return null;
  const underway = await deployingSafe(tx, wallet.user_id, wallet.chain_id);
  if (underway) return underway;
  const event_id = newId("sce");
  const updated = await tx.wallet.update({
    where: { id: wallet.id, safe_creation_status: "failed" },
    data: { safe_creation_status: status, safe_creation_event_id: event_id },
  });
  await enqueueSafeDeployment(
    tx,
    wallet.user_id,
    { wallet_id: wallet.id, event_id, chain_id: wallet.chain_id, owners: [owner], threshold: 1, salt_nonce: saltNonceFor(wallet.user_id, wallet.chain_id).toString() },
    { limits },
  );
  return updated;
}

/** Runs a deployment job through the SafeDeployer. Replays find the wallet already moved on and do nothing. */
export function safeDeploymentHandler(db: UsersDb, deployer: SafeDeployer): JobHandler {
  async function settle(payload: SafeDeploymentPayload, outcome: { address: Address } | { failed: true }) {
    const to = nextSafeCreationStatus("processing", "address" in outcome ? "deployed" : "deployment_failed");
    await db.$transaction(async (tx) => {
      // the guard on event id and status makes a late or repeated result a no-op, and emits nothing
      const { count } = await tx.wallet.updateMany({
        where: { id: payload.wallet_id, safe_creation_event_id: payload.event_id, safe_creation_status: "processing" },
        data: { safe_creation_status: to, ...("address" in outcome && { address: outcome.address }) },
      });
      if (count === 0) return;
      const { user_id } = await tx.wallet.findUniqueOrThrow({ where: { id: payload.wallet_id }, select: { user_id: true } });
      const common = { user_id, resource: { type: "wallet", id: String(payload.wallet_id) } };
      const wallet = { wallet_id: payload.wallet_id, user_id, chain_id: payload.chain_id };
      await emitEvent(
        tx,
        "address" in outcome
          ? { ...common, type: "safe.deployment_completed", data: { ...wallet, address: outcome.address, safe_creation_status: "completed" } }
          : { ...common, type: "safe.deployment_failed", data: { ...wallet, safe_creation_status: "failed" } },
      );
    });
  }

  return {
    async run(job: JobRow) {
      const payload = job.payload as SafeDeploymentPayload;
      const wallet = await db.wallet.findUnique({ where: { id: payload.wallet_id } });
      if (!wallet || wallet.safe_creation_event_id !== payload.event_id || wallet.safe_creation_status !== "processing") return { outcome: "done" };
      const result = await deployer.deploy({
        eventId: payload.event_id,
        chainId: payload.chain_id,
        owners: payload.owners,
        threshold: payload.threshold,
        saltNonce: BigInt(payload.salt_nonce),
      });
      if (result.status === "pending") return { outcome: "later", afterMs: result.retryAfterMs };
      if (result.status === "completed") {
        await settle(payload, { address: result.address });
        return { outcome: "done" };
      }
      if (result.retryable) throw new Error(`Safe deployment failed: ${result.reason}`);
      await settle(payload, { failed: true });
      return { outcome: "done" };
    },
    async exhausted(job: JobRow) {
      await settle(job.payload as SafeDeploymentPayload, { failed: true });
    },
  };
}
