import { appError } from "../../../lib/errors/app-error.ts";
import type { FinanceTx } from "../db.ts";

/** The catalogue's crypto asset `symbol` (any case) on `chainId` (or chain-independent), or TXN-422-002. */
export async function depositAsset(tx: FinanceTx, symbol: string, chainId: number): Promise<{ symbol: string; decimals: number }> {
  const asset = await tx.asset.findFirst({
    // on the chain (its contract or the native coin), or an asset on no chain at all (tests add those)
    where: { asset_type: "crypto", symbol: { equals: symbol, mode: "insensitive" }, OR: [{ contracts: { some: { chain_id: chainId } } }, { contracts: { none: {} } }] },
    select: { symbol: true, decimals: true },
  });
  if (!asset) throw appError("TXN-422-002", `No asset ${symbol} is known on chain ${chainId}.`);
  return asset;
}
