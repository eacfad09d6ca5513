import { parse } from "graphql";
import type { SubgraphClient } from "../../../gateway/subgraph-client.ts";
import { appError, fromExtensions } from "../../../lib/errors/app-error.ts";
import type { WalletOwner } from "../../../lib/wallet-owner.ts";

const WALLET_OWNERS = parse(`query ($address: String!, $chain_id: Int!, $org_id: String) {
  owners: _wallet_owners(address: $address, chain_id: $chain_id, org_id: $org_id) { user_id environment_id status wallet_id wallet_type signers { address role } }
}`);

/**
 * Who owns a wallet, asked of the users subgraph (`_wallet_owners`, internal): identity never
 * reads the users tables. `client` is handed over at wiring time (in memory in one process, signed
 * HTTP in split mode); the call carries the internal principal of the identity service.
 */
export async function findWalletOwners(
  client: SubgraphClient | undefined,
  args: { address: string; chain_id: number; org_id: string | null },
  traceId: string,
): Promise<WalletOwner[]> {
  if (!client) throw appError("GEN-503-001", "The identity service is not connected to the users service.");
  let result;
  try {
    result = await client.execute(WALLET_OWNERS, args, { principal: { kind: "internal", service: "identity" }, trace_id: traceId });
  } catch (error) {
    throw appError("GEN-503-001", "The users service could not be reached.", { cause: error });
  }
  if (result.errors?.length) {
    const error = result.errors[0]!;
    throw fromExtensions(error.extensions) ?? appError("GEN-503-001", "The users service could not resolve the wallet.", { cause: error });
  }
  return (result.data as { owners: WalletOwner[] }).owners;
}
