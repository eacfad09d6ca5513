import { appError } from "../../../lib/errors/app-error.ts";
import type { UsersTx } from "../db.ts";

/** Serialises wallet changes of one user, so the one-primary rules hold under concurrent requests. */
export async function lockUserWallets(tx: UsersTx, userId: string): Promise<void> {
  await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))::text`, `wallets:${userId}`);
}

/** A live wallet row of the user (signer rows included), or WAL-404-001: other users' wallets do not exist. */
export async function findOwnWallet(tx: UsersTx, userId: string, walletId: number) {
  const wallet = await tx.wallet.findFirst({ where: { id: walletId, user_id: userId, deleted_at: null } });
  if (!wallet) throw appError("WAL-404-001", `Wallet ${walletId} was not found for this user.`);
  return wallet;
}
