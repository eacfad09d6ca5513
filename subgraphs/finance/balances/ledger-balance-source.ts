import type { FinanceDb } from "../db.ts";
import { sourceBalances } from "../transactions/balances.ts";
import type { BalanceSource, BalanceWallet, HeldBalance } from "./balance-source.ts";

/** The completed ledger movements booked against the wallet (sandbox deposits included), summed in SQL. */
export class LedgerBalanceSource implements BalanceSource {
  constructor(private readonly db: FinanceDb) {}

  async walletBalances(wallet: BalanceWallet): Promise<HeldBalance[]> {
    const rows = await sourceBalances(this.db, { kind: "wallet", id: wallet.id });
    return rows.flatMap((row) => (row.asset_symbol !== null && row.balance_base_units !== "0" ? [{ symbol: row.asset_symbol, balance: row.balance_base_units }] : []));
  }
}
