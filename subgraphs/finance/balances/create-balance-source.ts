import type { BalanceConfig } from "../../../lib/balance-config.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { FinanceDb } from "../db.ts";
import type { BalanceSource } from "./balance-source.ts";
import { ChainBalanceSource } from "./chain-balance-source.ts";
import { LedgerBalanceSource } from "./ledger-balance-source.ts";

/** The BalanceSource BALANCE_SOURCE names; the chain source keeps the ledger for chains it cannot reach. */
export function createBalanceSource(db: FinanceDb, config: BalanceConfig, chainRpcUrls: Readonly<Record<number, string>>, logger?: Logger): BalanceSource {
  const ledger = new LedgerBalanceSource(db);
  return config.source === "chain" ? new ChainBalanceSource(db, chainRpcUrls, ledger, { cacheTtlMs: config.cacheTtlMs, ...(logger && { logger }) }) : ledger;
}
