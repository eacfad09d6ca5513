import { appError } from "../../../lib/errors/app-error.ts";
import type { UsersDb } from "../db.ts";
import { findOwnWallet, lockUserWallets } from "./wallet-access.ts";

/** DELETE /v0/wallets/{id}: a soft delete, refused for signers and primary wallets (spec 2.3, 4.3). */
export async function deleteWallet(db: UsersDb, options: { user_id: string; wallet_id: number }) {
  return db.$transaction(async (tx) => {
    await lockUserWallets(tx, options.user_id);
    const wallet = await findOwnWallet(tx, options.user_id, options.wallet_id);
    const carriesSignerRole =
      wallet.role === "signer" ||
      (wallet.address !== null &&
        (await tx.wallet.count({ where: { user_id: options.user_id, role: "signer", address: wallet.address, deleted_at: null } })) > 0);
    if (carriesSignerRole) throw appError("WAL-409-001");
    if (wallet.is_primary) throw appError("WAL-409-002");
    return tx.wallet.update({ where: { id: wallet.id }, data: { deleted_at: new Date() } });
  });
}
