import { appError } from "../../../lib/errors/app-error.ts";
import type { UsersDb } from "../db.ts";
import { walletAddressKey } from "./wallet-address-key.ts";

export interface RegisterPregeneratedWalletOptions {
  user_id: string;
  provider_wallet_id: string;
  address: string;
  type: string;
}

/**
 * POST /v0/wallets/pregenerated: records that the embedded-wallet provider pregenerated a wallet
 * for this user, so a later wallet.pregen_claimed event can be matched to them (by the provider's
 * wallet id, else by address). A provider wallet id or address belongs to one user only: 409.
 */
export async function registerPregeneratedWallet(db: UsersDb, options: RegisterPregeneratedWalletOptions) {
  const address_key = walletAddressKey(options.address);
  const rows = await db.pregeneratedWallet.createManyAndReturn({
    data: [{ user_id: options.user_id, provider_wallet_id: options.provider_wallet_id, address: options.address, address_key, type: options.type }],
    skipDuplicates: true,
  });
  if (rows.length === 0) throw appError("WAL-409-005");
  return rows[0]!;
}

export function listPregeneratedWallets(db: UsersDb, user_id: string) {
  return db.pregeneratedWallet.findMany({ where: { user_id }, orderBy: { id: "asc" } });
}
