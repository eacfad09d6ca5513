import { validationError } from "../../../lib/errors/app-error.ts";
import type { AssetType } from "../../../lib/vocabulary/assets.ts";
import type { FinanceDb, Prisma } from "../db.ts";
import { ASSET_INCLUDE, assetView, type AssetView } from "./asset-view.ts";

export interface AssetFilter {
  asset_type?: AssetType | null;
  chain_id?: number | null;
  symbol?: string | null;
}

/**
 * The catalogue's where-clause for GET /v0/assets: filters combine with AND; `chain_id` keeps the
 * crypto assets on that chain (a contract or the native coin there), so it is refused with
 * `asset_type=fiat` (fiat has no chain); `symbol` matches in any case.
 */
export function assetWhere(filter: AssetFilter): Prisma.AssetWhereInput {
  const assetType = filter.asset_type ?? undefined;
  if (filter.chain_id != null && assetType === "fiat")
    throw validationError(["chain_id"], "Value error, chain_id applies to crypto assets only; leave it out with asset_type=fiat", filter.chain_id, "value_error", {
      asset_type: assetType,
    });
  return {
    ...(assetType !== undefined && { asset_type: assetType }),
    ...(filter.chain_id != null && { contracts: { some: { chain_id: filter.chain_id } } }),
    ...(filter.symbol != null && { symbol: { equals: filter.symbol, mode: "insensitive" } }),
  };
}

/** The catalogue, crypto before fiat, then by symbol. */
export async function listAssets(db: FinanceDb, filter: AssetFilter): Promise<AssetView[]> {
  const rows = await db.asset.findMany({ where: assetWhere(filter), include: ASSET_INCLUDE, orderBy: [{ asset_type: "asc" }, { symbol: "asc" }] });
  return rows.map(assetView);
}
