import { parse } from "graphql";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";
import type { OwnedWallet } from "../../../lib/owned-wallet.ts";

const OWNED_WALLET = parse(`query ($user_id: String!, $wallet_id: Int!) {
  wallet: _owned_wallet(user_id: $user_id, wallet_id: $wallet_id) { id chain_id type address }
}`);

/**
 * The user's live wallet, asked of the users subgraph (`_owned_wallet`, internal): finance never
 * reads the users tables. Another user's wallet, a deleted one or a signer address: WAL-404-001,
 * passed on as the users subgraph answered it.
 */
export async function findOwnedWallet(users: FederatedClient, args: { user_id: string; wallet_id: number }, traceId: string): Promise<OwnedWallet> {
  const { wallet } = await users.query<{ wallet: OwnedWallet }>(OWNED_WALLET, args, traceId);
  return wallet;
}
