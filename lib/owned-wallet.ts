// The contract of the users subgraph's internal `_owned_wallet` field: the users subgraph answers
// it; the finance subgraph asks it before booking a movement against a wallet, the agents subgraph
// before restricting an agent token to wallets. Described once here because no subgraph may
// import another's internals.

import { parse } from "graphql";
import { appError } from "./errors/app-error.ts";
import type { FederatedClient } from "./graphql/federated-client.ts";
import type { WalletType } from "./vocabulary/wallets.ts";

/** A live wallet (role `wallet`, EOA or Safe) of one user. */
export interface OwnedWallet {
  id: number;
  chain_id: number;
  type: WalletType;
  /** null while a Safe is being deployed */
  address: string | null;
  /** whether the address is proven to be the user's (users.wallets.address_verified_at) */
  address_verified: boolean;
}

const OWNED_WALLET = parse(`query ($user_id: String!, $wallet_id: Int!) {
  wallet: _owned_wallet(user_id: $user_id, wallet_id: $wallet_id) { id chain_id type address address_verified }
}`);

/**
 * The user's live wallet, asked of the users subgraph (`_owned_wallet`, internal). Another user's
 * wallet, a deleted one or a signer address: WAL-404-001, passed on as the users subgraph answered it.
 */
export async function findOwnedWallet(users: FederatedClient, args: { user_id: string; wallet_id: number }, traceId: string): Promise<OwnedWallet> {
  const { wallet } = await users.query<{ wallet: OwnedWallet }>(OWNED_WALLET, args, traceId);
  return wallet;
}

/**
 * The privileges a squatter could turn against an address's real owner, refused until the
 * wallet's address is proven: each names itself in WAL-403-001's detail.
 */
export type ProvenWalletPrivilege = "fund a card" | "fund an off-ramp" | "adopt a Safe it owns (byo onboarding)";

/** WAL-403-001 unless the wallet's address is proven to be the user's, saying how to prove it. */
export function requireProvenWallet(wallet: { id: number; address_verified: boolean }, privilege: ProvenWalletPrivilege): void {
  if (wallet.address_verified) return;
  throw appError(
    "WAL-403-001",
    `Wallet ${wallet.id}'s address is not proven to be yours, so it cannot ${privilege}: sign the address-proof message with the address and send it to POST /v0/wallets/${wallet.id}/address-proof, then retry.`,
  );
}
