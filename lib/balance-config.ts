// Wallet balance configuration (subgraphs/finance/balances/):
//
//   BALANCE_SOURCE          ledger | chain. Default ledger: balances summed from the finance ledger
//                           (sandbox deposits show). chain: wallets on a chain of CHAIN_RPC_URLS are
//                           read on chain (native coin and the catalogue's ERC-20s, one multicall);
//                           wallets on other chains, and Safes not deployed yet, keep the ledger.
//   BALANCE_CACHE_SECONDS   how long a chain read is kept per wallet. Default 15.
import { ConfigError } from "./config-error.ts";
import { envText, type Env } from "./parse.ts";
import { BALANCE_SOURCES, type BalanceSourceKind } from "./vocabulary/assets.ts";

export interface BalanceConfig {
  source: BalanceSourceKind;
  cacheTtlMs: number;
}

export function loadBalanceConfig(env: Env, chainRpcUrls: Readonly<Record<number, string>>): BalanceConfig {
  const source = envText(env, "BALANCE_SOURCE") ?? "ledger";
  if (!(BALANCE_SOURCES as readonly string[]).includes(source)) throw new ConfigError("BALANCE_SOURCE", `expected one of ${BALANCE_SOURCES.join(", ")}, got "${source}"`);
  if (source === "chain" && Object.keys(chainRpcUrls).length === 0) throw new ConfigError("BALANCE_SOURCE", "chain needs at least one chain in CHAIN_RPC_URLS");
  const raw = envText(env, "BALANCE_CACHE_SECONDS");
  const seconds = raw === undefined ? 15 : Number(raw);
  if (!Number.isSafeInteger(seconds) || seconds < 0 || seconds > 86_400) throw new ConfigError("BALANCE_CACHE_SECONDS", `expected a whole number of seconds from 0 to 86400, got "${raw}"`);
  return { source: source as BalanceSourceKind, cacheTtlMs: seconds * 1000 };
}
