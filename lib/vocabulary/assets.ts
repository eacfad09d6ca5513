/** Spec 2.10: an asset of the catalogue is a token on chains (crypto) or a currency (fiat). */
export const ASSET_TYPES = ["crypto", "fiat"] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/** Where an asset's USD price came from (PRICE_SOURCE, lib/price-config.ts). */
export const PRICE_SOURCES = ["static", "chainlink"] as const;
export type PriceSourceKind = (typeof PRICE_SOURCES)[number];

/** Where wallet balances come from (BALANCE_SOURCE, lib/balance-config.ts). */
export const BALANCE_SOURCES = ["ledger", "chain"] as const;
export type BalanceSourceKind = (typeof BALANCE_SOURCES)[number];

/** Spec 2.10: what an entry of the unified account view is. */
export const ACCOUNT_SOURCES = ["crypto_wallet", "bank_account", "card"] as const;
export type AccountSource = (typeof ACCOUNT_SOURCES)[number];
