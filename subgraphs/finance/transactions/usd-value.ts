import type { FinanceTx } from "../db.ts";
import type { AssetPrices } from "../prices/asset-prices.ts";

/**
 * The USD price per whole unit of a movement's asset or currency now (PRICE_SOURCE, through the
 * cache); null when no source knows one. A stale price is still the best known price of the moment.
 */
export async function usdPriceNow(prices: Pick<AssetPrices, "price">, unit: { asset_symbol: string } | { currency: string }): Promise<string | null> {
  const quote = await prices.price("asset_symbol" in unit ? unit.asset_symbol : unit.currency);
  return quote?.value_usd ?? null;
}

/** amount × price in NUMERIC, at the ledger's 18 decimals, trailing zeros trimmed: never a float. */
export async function usdValue(tx: FinanceTx, amount: string, usdPrice: string): Promise<string> {
  const [row] = await tx.$queryRaw<{ value: string }[]>`SELECT trim_scale(round(${amount}::numeric * ${usdPrice}::numeric, 18))::text AS value`;
  return row!.value;
}
