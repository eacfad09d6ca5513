import type { KeyPartition } from "../../../lib/auth/api-key.ts";
import { appError } from "../../../lib/errors/app-error.ts";

/** The scope catalogue of spec 5.2: each scope belongs to one partition. */
export const SCOPE_CATALOGUE: Readonly<Record<string, KeyPartition>> = {
  "idsvc.lookup": "server",
  "idsvc.get_details": "server",
  "idsvc.get_kyc": "server",
  "idsvc.token_exchange": "server",
  "idsvc.get_pints": "server",
  "rpc.invoke": "public",
};

/** Scope names before the dotted catalogue (spec 9); the data migration rewrites stored keys. */
export const LEGACY_SCOPES: Readonly<Record<string, string>> = {
  lookup: "idsvc.lookup",
  get_details: "idsvc.get_details",
  get_kyc: "idsvc.get_kyc",
  token_exchange: "idsvc.token_exchange",
  get_pints: "idsvc.get_pints",
  rpc: "rpc.invoke",
};

/**
 * The partition a key with these scopes belongs to (spec 4.7, 5.2.3): scopes must be non-empty,
 * known and all of one namespace, else 422 IDS-422-006.
 */
export function partitionOf(scopes: readonly string[]): KeyPartition {
  if (scopes.length === 0) throw appError("IDS-422-006", "scopes must not be empty.");
  const unknown = scopes.filter((s) => !Object.hasOwn(SCOPE_CATALOGUE, s));
  if (unknown.length > 0) throw appError("IDS-422-006", `Unknown scopes: ${unknown.join(", ")}.`);
  const partitions = new Set(scopes.map((s) => SCOPE_CATALOGUE[s]!));
  if (partitions.size > 1) throw appError("IDS-422-006", "A key cannot mix idsvc.* and rpc.* scopes: server and public keys are separate.");
  return [...partitions][0]!;
}
