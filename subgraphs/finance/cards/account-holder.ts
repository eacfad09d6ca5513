import { parse } from "graphql";
import type { AccountHolder } from "../../../lib/account-holder.ts";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";

const ACCOUNT_HOLDER = parse(`query ($user_id: String!) { holder: _account_holder(user_id: $user_id) { user_id status primary_eoa_address } }`);

/** The user's verification status and primary EOA, asked of the users subgraph: finance never reads its tables. */
export async function accountHolder(users: FederatedClient, userId: string, traceId: string): Promise<AccountHolder> {
  const { holder } = await users.query<{ holder: AccountHolder }>(ACCOUNT_HOLDER, { user_id: userId }, traceId);
  return holder;
}
