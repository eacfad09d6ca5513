import type { Prisma } from "../db.ts";

/** What every asset read loads: the row and its chains, in chain order. */
export const ASSET_INCLUDE = { contracts: { orderBy: { chain_id: "asc" } } } as const satisfies Prisma.AssetInclude;

export type AssetRow = Prisma.AssetGetPayload<{ include: typeof ASSET_INCLUDE }>;

/** The catalogue row as the Asset type shows it (the price is resolved on its own). */
export function assetView(row: AssetRow) {
  return {
    id: row.id,
    asset_type: row.asset_type,
    symbol: row.symbol,
    name: row.name,
    decimals: row.decimals,
    contract_addresses: row.contracts.map((contract) => ({ chain_id: contract.chain_id, address: contract.address })),
  };
}

export type AssetView = ReturnType<typeof assetView>;
