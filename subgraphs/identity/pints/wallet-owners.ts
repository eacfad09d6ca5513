import { parse } from "graphql";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";
import type { WalletOwner } from "../../../lib/wallet-owner.ts";

const WALLET_OWNERS = parse(`query ($address: String!, $chain_id: Int!, $org_id: String) {
  owners: _wallet_owners(address: $address, chain_id: $chain_id, org_id: $org_id) { user_id environment_id status wallet_id wallet_type signers { address role verified } }
}`);

/**
 * Who owns a wallet, asked of the users subgraph (`_wallet_owners`, internal): identity never
 * reads the users tables. The peer client calls it as the identity service, in memory in one
 * process and over signed HTTP in split mode.
 */
export async function findWalletOwners(users: FederatedClient, args: { address: string; chain_id: number; org_id: string | null }, traceId: string): Promise<WalletOwner[]> {
  const { owners } = await users.query<{ owners: WalletOwner[] }>(WALLET_OWNERS, args, traceId);
  return owners;
}
