import type { RestResource, TypeOverlay } from "../route-kit/resource-overlay.ts";

/** A balance, also inside the account view's accounts (account-view.ts). */
export const ASSET_BALANCE: TypeOverlay = {
  fields: {
    asset: { ref: true },
    balance: { pattern: "^-?[0-9]+$", examples: ["25500000"] },
    value_usd: {
      pattern: "^-?[0-9]+(\\.[0-9]+)?$",
      examples: ["25.5"],
      orNull: { description: "balance × the asset's USD price, exact (every digit kept, trailing zeros trimmed); null while no price is known" },
    },
  },
};

/** What a wallet (or another account) holds of one asset: GET /v0/wallets/{wallet_id}/assets writes it inline. */
export const resource = { type: "AssetBalance", component: false, types: { AssetBalance: ASSET_BALANCE } } satisfies RestResource;
