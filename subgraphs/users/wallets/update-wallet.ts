import { getAddress } from "viem";
import type { EnvironmentLimits } from "../../../lib/environment-limits.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { UsersDb, UsersTx } from "../db.ts";
import { eoaProvenAt } from "./address-proof.ts";
import { retrySafeDeployment, triggerSafeDeployment } from "./safe-deployment.ts";
import { findOwnWallet, lockUserWallets } from "./wallet-access.ts";

export interface UpdateWalletOptions {
  user_id: string;
  wallet_id: number;
  /** undefined leaves it, null clears it */
  nickname?: string | null;
  is_primary?: boolean;
  retry_safe_creation?: boolean;
  /** Safe deployments count against the environment's ENVIRONMENT_LIMITS */
  limits: EnvironmentLimits;
}

type WalletRow = Awaited<ReturnType<typeof findOwnWallet>>;

export interface UpdateWalletResult {
  wallet: WalletRow;
  /** the Safe whose deployment this change started (the REST answer is then 202) */
  triggered_safe: WalletRow | null;
}

/**
 * PATCH /v0/wallets/{id}: nickname, primary designation and retry of a failed Safe creation.
 * Keeps spec 2.3's rules: one primary EOA and one primary Safe, both on `primary_chain_id`.
 */
export async function updateWallet(db: UsersDb, options: UpdateWalletOptions): Promise<UpdateWalletResult> {
  return db.$transaction(async (tx) => {
    await lockUserWallets(tx, options.user_id);
    let wallet = await findOwnWallet(tx, options.user_id, options.wallet_id);
    let triggered_safe: WalletRow | null = null;

    if (options.retry_safe_creation) {
      if (wallet.type !== "Safe" || wallet.safe_creation_status !== "failed") throw appError("WAL-409-004");
      const user = await tx.user.findUniqueOrThrow({ where: { id: options.user_id } });
      // the deployment may be another Safe's already under way on that chain
      triggered_safe = await retrySafeDeployment(tx, wallet, getAddress(user.primary_eoa_address), options.limits);
      wallet = await tx.wallet.findUniqueOrThrow({ where: { id: wallet.id } });
    }

    if (options.is_primary === false && wallet.is_primary)
      throw appError("WAL-400-002", "A primary wallet stops being primary when another wallet of its type is designated primary.");
    if (options.is_primary === true && !wallet.is_primary) {
      if (wallet.role !== "wallet") throw appError("WAL-400-002", "A signer address cannot be a primary wallet.");
      const safe = wallet.type === "EOA" ? await makePrimaryEoa(tx, wallet, options.limits) : await makePrimarySafe(tx, wallet);
      triggered_safe = safe ?? triggered_safe;
      wallet = await tx.wallet.findUniqueOrThrow({ where: { id: wallet.id } });
    }

    if (options.nickname !== undefined) wallet = await tx.wallet.update({ where: { id: wallet.id }, data: { nickname: options.nickname } });
    return { wallet, triggered_safe };
  });
}

async function setPrimary(tx: UsersTx, wallet: WalletRow): Promise<void> {
  await tx.wallet.updateMany({ where: { user_id: wallet.user_id, type: wallet.type, is_primary: true }, data: { is_primary: false } });
  await tx.wallet.update({ where: { id: wallet.id }, data: { is_primary: true } });
}

/** A new primary EOA; when it is on another chain, the primary Safe follows it there (deploying one if needed). */
async function makePrimaryEoa(tx: UsersTx, eoa: WalletRow, limits: EnvironmentLimits): Promise<WalletRow | null> {
  await setPrimary(tx, eoa);
  await tx.user.update({ where: { id: eoa.user_id }, data: { primary_eoa_address: eoa.address!, primary_chain_id: eoa.chain_id } });
  const primarySafe = await tx.wallet.findFirst({ where: { user_id: eoa.user_id, type: "Safe", is_primary: true, deleted_at: null } });
  if (primarySafe?.chain_id === eoa.chain_id) return null;
  const safeOnChain = await tx.wallet.findFirst({
    where: { user_id: eoa.user_id, type: "Safe", role: "wallet", chain_id: eoa.chain_id, deleted_at: null, safe_creation_status: { not: "failed" } },
    orderBy: { id: "asc" },
  });
  if (safeOnChain) {
    await setPrimary(tx, safeOnChain);
    return null;
  }
  await tx.wallet.updateMany({ where: { user_id: eoa.user_id, type: "Safe", is_primary: true }, data: { is_primary: false } });
  return triggerSafeDeployment(tx, { user_id: eoa.user_id, chain_id: eoa.chain_id, owner: getAddress(eoa.address!), owner_verified_at: eoa.address_verified_at, is_primary: true, limits });
}

/** A new primary Safe; the primary EOA (the same key works on every EVM chain) moves to its chain. */
async function makePrimarySafe(tx: UsersTx, safe: WalletRow): Promise<null> {
  if (safe.safe_creation_status !== "completed") throw appError("WAL-400-002", "Only a deployed Safe can be the primary Safe.");
  await setPrimary(tx, safe);
  const user = await tx.user.findUniqueOrThrow({ where: { id: safe.user_id } });
  if (user.primary_chain_id !== safe.chain_id) {
    const eoa =
      (await tx.wallet.findFirst({ where: { user_id: user.id, type: "EOA", role: "wallet", address: user.primary_eoa_address, chain_id: safe.chain_id, deleted_at: null } })) ??
      (await tx.wallet.create({
        data: { user_id: user.id, type: "EOA", address: user.primary_eoa_address, chain_id: safe.chain_id, address_verified_at: await eoaProvenAt(tx, user.id, user.primary_eoa_address) },
      }));
    await setPrimary(tx, eoa);
    await tx.user.update({ where: { id: user.id }, data: { primary_chain_id: safe.chain_id } });
  }
  return null;
}
