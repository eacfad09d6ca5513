import { ASSET_INCLUDE, assetView, type AssetView } from "../assets/asset-view.ts";
import type { FinanceDb } from "../db.ts";
import type { AssetPrices } from "../prices/asset-prices.ts";
import type { BalanceSource, BalanceWallet } from "./balance-source.ts";
import { valueUsd } from "../../../lib/decimal.ts";

/** One asset of a wallet as the API shows it (spec 2.10's wallet asset listing). */
export interface AssetBalanceView {
  asset: AssetView;
  /** base units, a whole decimal string */
  balance: string;
  /** exact decimal string; null while no price is known */
  value_usd: string | null;
}

export interface WalletAssetServices {
  db: FinanceDb;
  balances: BalanceSource;
  prices: AssetPrices;
}

/**
 * What the wallet holds (BALANCE_SOURCE), each asset with its catalogue record and its value at the
 * current USD price, by symbol. The wallet is the users subgraph's answer (it authorised the read).
 */
export async function walletAssets(services: WalletAssetServices, wallet: BalanceWallet): Promise<AssetBalanceView[]> {
  return assetBalanceViews(services, await services.balances.walletBalances(wallet));
}

/** Balances in base units by symbol as the API shows them: each with its catalogue record and USD value, by symbol. */
export async function assetBalanceViews(services: Pick<WalletAssetServices, "db" | "prices">, held: readonly { symbol: string; balance: string }[]): Promise<AssetBalanceView[]> {
  if (held.length === 0) return [];
  const rows = await services.db.asset.findMany({ where: { symbol: { in: held.map((h) => h.symbol) } }, include: ASSET_INCLUDE });
  const catalogue = new Map(rows.map((row) => [row.symbol, assetView(row)]));
  const views = await Promise.all(
    held.map(async ({ symbol, balance }): Promise<AssetBalanceView | null> => {
      const asset = catalogue.get(symbol);
      // the ledger books catalogue assets only; a symbol gone from the catalogue has no name to show
      if (!asset) return null;
      const price = await services.prices.price(symbol);
      return { asset, balance, value_usd: price ? valueUsd(balance, asset.decimals, price.value_usd) : null };
    }),
  );
  return views.filter((view): view is AssetBalanceView => view !== null).sort((a, b) => a.asset.symbol.localeCompare(b.asset.symbol));
}
