import { checkJsonAt } from "../../../lib/json-validation.ts";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";
import { findOwnedWallet } from "../../../lib/owned-wallet.ts";
import type { StrategyRow } from "./strategy-catalogue.ts";

/**
 * The parameters checked against the strategy's JSON Schema, its defaults filled in; otherwise a
 * 422 whose items name each failing parameter at `parameters.<name>`.
 */
export function validateParameters(strategy: StrategyRow, parameters: unknown): Record<string, unknown> {
  return checkJsonAt(strategy.parameters_schema as object, parameters, ["parameters"]);
}

/**
 * Every `*wallet_id` parameter must name one of the user's live wallets (asked of the users
 * subgraph: WAL-404-001 otherwise), so a strategy never moves or watches someone else's.
 */
export async function requireOwnWallets(users: FederatedClient, userId: string, parameters: Record<string, unknown>, traceId: string): Promise<void> {
  const walletIds = Object.entries(parameters)
    .filter(([name, value]) => name.endsWith("wallet_id") && typeof value === "number")
    .map(([, value]) => value as number);
  await Promise.all([...new Set(walletIds)].map((wallet_id) => findOwnedWallet(users, { user_id: userId, wallet_id }, traceId)));
}
