import type { Address } from "viem";
import { checksummedAddress } from "../../../lib/address.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { UsersDb } from "../db.ts";
import { isFreshProof, verifyAddressControl } from "../wallets/address-control.ts";
import { walletAddressKey } from "./wallet-address-key.ts";

export interface RegisterPregeneratedWalletOptions {
  user_id: string;
  provider_wallet_id: string;
  address: string;
  type: string;
  /** epoch ms the signer put in the message */
  issued_at: number;
  /** EIP-191 signature by `address` over `pregeneratedWalletMessage` */
  signature: string;
  now?: number;
}

/**
 * The exact text the pregenerated wallet signs (EIP-191 `personal_sign`, e.g. with the
 * embedded-wallet provider's server-side signing) to prove the caller holds it; GET /openapi.json
 * documents it.
 */
export function pregeneratedWalletMessage(input: { user_id: string; provider_wallet_id: string; address: Address; type: string; issued_at: number }): string {
  return [
    "Register pregenerated wallet",
    `User: ${input.user_id}`,
    `Provider Wallet ID: ${input.provider_wallet_id}`,
    `Address: ${input.address}`,
    `Type: ${input.type}`,
    `Issued At: ${new Date(input.issued_at).toISOString()}`,
  ].join("\n");
}

/**
 * POST /v0/wallets/pregenerated: records that the embedded-wallet provider pregenerated a wallet
 * for this user, once its address proved control (400 WAL-400-001 otherwise), so a later
 * wallet.pregen_claimed event can be matched to them by that address. An address is registered
 * once: any conflict is 409 WAL-409-005 with one fixed detail, whoever holds it (the caller or
 * another user), so the answer tells no one about other users. An unproven, unclaimed row of
 * the address (registered before proofs were required) gives way.
 */
export async function registerPregeneratedWallet(db: UsersDb, options: RegisterPregeneratedWalletOptions) {
  const address = checksummedAddress(options.address, ["body", "address"]);
  if (!isFreshProof(options.issued_at, options.now)) throw appError("WAL-400-001", "issued_at must be within 10 minutes of the server's time.");
  const message = pregeneratedWalletMessage({ user_id: options.user_id, provider_wallet_id: options.provider_wallet_id, address, type: options.type, issued_at: options.issued_at });
  if (!(await verifyAddressControl({ address, message, signature: options.signature, signer: "EOA", chain_id: 0, chainRpcUrls: {} }))) throw appError("WAL-400-001");

  const address_key = walletAddressKey(address);
  return db.$transaction(async (tx) => {
    // a row from before proofs were required is only someone's word: a proven registration replaces it
    await tx.pregeneratedWallet.deleteMany({ where: { address_key, proven_at: null, claim: { is: null } } });
    const rows = await tx.pregeneratedWallet.createManyAndReturn({
      data: [{ user_id: options.user_id, provider_wallet_id: options.provider_wallet_id, address, address_key, type: options.type, proven_at: new Date() }],
      skipDuplicates: true,
    });
    if (rows.length === 0) throw appError("WAL-409-005");
    return rows[0]!;
  });
}

export function listPregeneratedWallets(db: UsersDb, user_id: string) {
  return db.pregeneratedWallet.findMany({ where: { user_id }, orderBy: { id: "asc" } });
}
