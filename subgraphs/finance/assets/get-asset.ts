import { appError } from "../../../lib/errors/app-error.ts";
import type { FinanceDb } from "../db.ts";
import { ASSET_INCLUDE, assetView, type AssetView } from "./asset-view.ts";

/** One asset of the catalogue by id (`ast_usdc`), or AST-404-001. */
export async function getAsset(db: FinanceDb, id: string): Promise<AssetView> {
  const row = await db.asset.findUnique({ where: { id }, include: ASSET_INCLUDE });
  if (!row) throw appError("AST-404-001");
  return assetView(row);
}
