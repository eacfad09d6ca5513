import { isAddressEqual, type Address } from "viem";
import { jwtVouchesFor } from "../../../lib/auth/jwt-wallets.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import type { UsersDb, UsersTx } from "../db.ts";
import { isFreshProof, verifyAddressControl } from "./address-control.ts";
import { findOwnWallet, lockUserWallets } from "./wallet-access.ts";

/** When the user's live EOA rows of `address` were proven, or null: the key is the same on every chain. */
export async function eoaProvenAt(tx: UsersTx, user_id: string, address: string): Promise<Date | null> {
  const row = await tx.wallet.findFirst({
    where: { user_id, address, type: "EOA", deleted_at: null, address_verified_at: { not: null } },
    select: { address_verified_at: true },
  });
  return row?.address_verified_at ?? null;
}

/**
 * The exact text the wallet's address signs (EIP-191 `personal_sign`; a Safe by ERC-1271) to
 * prove it is the user's after registration; GET /openapi.json documents it.
 */
export function walletAddressProofMessage(input: { user_id: string; wallet_id: number; address: Address; chain_id: number; issued_at: number }): string {
  return [
    "Prove wallet address",
    `User: ${input.user_id}`,
    `Wallet ID: ${input.wallet_id}`,
    `Address: ${input.address}`,
    `Chain ID: ${input.chain_id}`,
    `Issued At: ${new Date(input.issued_at).toISOString()}`,
  ].join("\n");
}

export interface ProveWalletAddressOptions {
  user_id: string;
  wallet_id: number;
  /** wallets the caller's JWT vouches for (lib/auth/jwt-wallets.ts): proof enough on their own */
  jwt_wallet_addresses?: readonly string[];
  issued_at?: number | null;
  signature?: string | null;
  chainRpcUrls: Readonly<Record<number, string>>;
  now?: number;
}

/**
 * POST /v0/wallets/{wallet_id}/address-proof: records that the wallet's address is the user's,
 * proven by the caller's JWT vouching for it or by the address's signature over
 * `walletAddressProofMessage` (400 WAL-400-001 when it does not check out). An EOA's proof holds
 * for the user's rows of that address on every chain; proving the primary EOA also proves the
 * Safes the platform deployed for it (it owns them). Proving a proven wallet again is a no-op.
 */
export async function proveWalletAddress(db: UsersDb, options: ProveWalletAddressOptions) {
  const wallet = await findOwnWallet(db, options.user_id, options.wallet_id);
  if (wallet.address_verified_at) return wallet;
  if (!wallet.address) throw appError("WAL-400-002", "A Safe still being deployed has no address to prove yet.");
  const address = wallet.address as Address;
  if (!jwtVouchesFor(options.jwt_wallet_addresses, address)) {
    if (options.signature == null) throw validationError(["signature"], "Field required: the address's signature, unless the JWT vouches for the address", null, "missing");
    if (options.issued_at == null) throw validationError(["issued_at"], "Field required: issued_at goes with signature", null, "missing");
    if (!isFreshProof(options.issued_at, options.now)) throw appError("WAL-400-001", "issued_at must be within 10 minutes of the server's time.");
    const message = walletAddressProofMessage({ user_id: options.user_id, wallet_id: wallet.id, address, chain_id: wallet.chain_id, issued_at: options.issued_at });
    const signer = wallet.type === "Safe" ? "contract" : "EOA";
    if (!(await verifyAddressControl({ address, message, signature: options.signature, signer, chain_id: wallet.chain_id, chainRpcUrls: options.chainRpcUrls }))) throw appError("WAL-400-001");
  }
  return db.$transaction(async (tx) => {
    await lockUserWallets(tx, options.user_id);
    const provenAt = new Date(options.now ?? Date.now());
    const unproven = { user_id: options.user_id, address_verified_at: null, deleted_at: null };
    if (wallet.type === "Safe") {
      await tx.wallet.updateMany({ where: { ...unproven, id: wallet.id }, data: { address_verified_at: provenAt } });
    } else {
      await tx.wallet.updateMany({ where: { ...unproven, address, type: "EOA" }, data: { address_verified_at: provenAt } });
      const user = await tx.user.findUniqueOrThrow({ where: { id: options.user_id }, select: { primary_eoa_address: true } });
      if (isAddressEqual(user.primary_eoa_address as Address, address))
        await tx.wallet.updateMany({ where: { ...unproven, type: "Safe", role: "wallet" }, data: { address_verified_at: provenAt } });
    }
    return findOwnWallet(tx, options.user_id, wallet.id);
  });
}
