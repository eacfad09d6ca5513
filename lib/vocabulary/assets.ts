/** Spec 2.10: an asset of the catalogue is a token on chains (crypto) or a currency (fiat). */
export const ASSET_TYPES = ["crypto", "fiat"] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/** Where an asset's USD price came from (PRICE_SOURCE, lib/price-config.ts). */
export const PRICE_SOURCES = ["static", "chainlink"] as const;
export type PriceSourceKind = (typeof PRICE_SOURCES)[number];
