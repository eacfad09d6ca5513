import type { Address } from "viem";
import { checksummedAddress } from "../../../lib/address.ts";
import { requireSupportedChain } from "../../../lib/chains.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import type { WalletRole, WalletType } from "../../../lib/vocabulary/wallets.ts";
import type { UsersDb } from "../db.ts";
import { isFreshProof, verifyAddressControl } from "./address-control.ts";
import { findOwnWallet, lockUserWallets } from "./wallet-access.ts";

export interface RegisterWalletOptions {
  user_id: string;
  address: string;
  chain_id: number;
  type: WalletType;
  role: WalletRole;
  nickname?: string | null;
  /** epoch ms the client put in the signed message */
  issued_at: number;
  signature: string;
  supportedChainIds: readonly number[];
  chainRpcUrls: Readonly<Record<number, string>>;
  now?: number;
}

/**
 * The exact text the address signs (EIP-191 personal_sign) to prove control. Clients build it
 * from the same fields they send; GET /openapi.json documents it.
 */
export function walletRegistrationMessage(input: { user_id: string; address: Address; chain_id: number; type: string; role: string; issued_at: number }): string {
  return [
    "Register wallet",
    `User: ${input.user_id}`,
    `Address: ${input.address}`,
    `Chain ID: ${input.chain_id}`,
    `Type: ${input.type}`,
    `Role: ${input.role}`,
    `Issued At: ${new Date(input.issued_at).toISOString()}`,
  ].join("\n");
}

/**
 * POST /v0/wallets: registers a further wallet (EOA or Safe) or a signer address of the user's
 * primary Safe, after checking a signature by that address over `walletRegistrationMessage`.
 */
export async function registerWallet(db: UsersDb, options: RegisterWalletOptions) {
  const { type, role } = options;
  const address = checksummedAddress(options.address, ["address"]);
  requireSupportedChain(options.supportedChainIds, options.chain_id);
  if (role === "signer" && type !== "EOA") throw validationError(["type"], "Value error, a signer is a key-controlled (EOA) address", type);
  const now = options.now ?? Date.now();
  if (!isFreshProof(options.issued_at, now))
    throw appError("WAL-400-001", "issued_at must be within 10 minutes of the server's time.");

  const message = walletRegistrationMessage({ user_id: options.user_id, address, chain_id: options.chain_id, type, role, issued_at: options.issued_at });
  const proof = { address, message, signature: options.signature, signer: type === "EOA" ? "EOA" : "contract", chain_id: options.chain_id, chainRpcUrls: options.chainRpcUrls } as const;
  if (!(await verifyAddressControl(proof))) throw appError("WAL-400-001");

  return db.$transaction(async (tx) => {
    await lockUserWallets(tx, options.user_id);
    const existing = await tx.wallet.findFirst({
      where: { user_id: options.user_id, address, chain_id: options.chain_id, role, deleted_at: null },
      select: { id: true },
    });
    if (existing) throw appError("WAL-409-003", `This address is already registered for the user on this chain as wallet ${existing.id}.`);
    let signer_of_wallet_id: number | null = null;
    if (role === "signer") {
      const safe = await tx.wallet.findFirst({ where: { user_id: options.user_id, type: "Safe", is_primary: true, deleted_at: null } });
      if (!safe) throw appError("WAL-400-002", "The user has no primary Safe to add a signer to.");
      signer_of_wallet_id = (await findOwnWallet(tx, options.user_id, safe.id)).id;
    }
    return tx.wallet.create({
      data: {
        user_id: options.user_id,
        type,
        role,
        address,
        chain_id: options.chain_id,
        nickname: options.nickname ?? null,
        signer_of_wallet_id,
        address_verified_at: new Date(now),
        ...(type === "Safe" && { safe_creation_status: "completed" }),
      },
    });
  });
}
