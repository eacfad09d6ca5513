import type { TSchema } from "@sinclair/typebox";
import type { ValidateFunction } from "ajv";
import { AppError } from "../../../lib/errors/app-error.ts";
import { compileValidator, validationItems } from "../../../lib/json-validation.ts";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";
import { findOwnedWallet } from "../../../lib/owned-wallet.ts";
import type { StrategyRow } from "./strategy-catalogue.ts";

// one validator per schema text; the catalogue is a handful of seeded rows
const validators = new Map<string, ValidateFunction>();

/**
 * The parameters checked against the strategy's JSON Schema, its defaults filled in; otherwise a
 * 422 whose items name each failing parameter at `body.parameters.<name>`.
 */
export function validateParameters(strategy: StrategyRow, parameters: unknown): Record<string, unknown> {
  const text = JSON.stringify(strategy.parameters_schema);
  let validate = validators.get(text);
  if (!validate) {
    validate = compileValidator(strategy.parameters_schema as TSchema, "body");
    validators.set(text, validate);
  }
  const copy = structuredClone(parameters ?? {});
  if (!validate(copy)) {
    const items = validationItems(validate.errors ?? [], "body", copy).map((item) => ({ ...item, loc: ["body", "parameters", ...item.loc.slice(1)] }));
    throw new AppError("GEN-422-001", { validation: items });
  }
  return copy as Record<string, unknown>;
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
