// The contract of the users subgraph's internal `_owned_wallet` field: the users subgraph answers
// it; the finance subgraph asks it before booking a movement against a wallet, the agents subgraph
// before restricting an agent token to wallets. Described once here because no subgraph may
// import another's internals.

import { parse } from "graphql";
import type { FederatedClient } from "./graphql/federated-client.ts";
import type { WalletType } from "./vocabulary/wallets.ts";

/** A live wallet (role `wallet`, EOA or Safe) of one user. */
export interface OwnedWallet {
  id: number;
  chain_id: number;
  type: WalletType;
  /** null while a Safe is being deployed */
  address: string | null;
}

const OWNED_WALLET = parse(`query ($user_id: String!, $wallet_id: Int!) {
  wallet: _owned_wallet(user_id: $user_id, wallet_id: $wallet_id) { id chain_id type address }
}`);

/**
 * The user's live wallet, asked of the users subgraph (`_owned_wallet`, internal). Another user's
 * wallet, a deleted one or a signer address: WAL-404-001, passed on as the users subgraph answered it.
 */
export async function findOwnedWallet(users: FederatedClient, args: { user_id: string; wallet_id: number }, traceId: string): Promise<OwnedWallet> {
  const { wallet } = await users.query<{ wallet: OwnedWallet }>(OWNED_WALLET, args, traceId);
  return wallet;
}
