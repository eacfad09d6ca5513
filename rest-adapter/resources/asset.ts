import type { RestResource } from "../route-kit/resource-overlay.ts";
import { DECIMAL_PATTERN } from "../route-kit/schemas.ts";

/** An asset of the catalogue in REST (spec 2.10): the GraphQL Asset, prices as decimal strings. */
export const resource = {
  type: "Asset",
  types: {
    Asset: {
      fields: {
        id: { examples: ["ast_usdc"] },
        symbol: { examples: ["USDC"] },
        name: { examples: ["USD Coin"] },
        decimals: { minimum: 0 },
        contract_addresses: { description: "one entry per chain the asset is on, by chain id; empty for fiat" },
      },
    },
    AssetContractAddress: {
      fields: { chain_id: { examples: [8453] }, address: { pattern: "^0x[0-9a-fA-F]{40}$", description: "EIP-55; null for the chain's native coin (ETH)" } },
    },
    AssetPriceQuote: {
      fields: {
        value_usd: { pattern: DECIMAL_PATTERN, examples: ["1.00"] },
        source: { description: "static: configured (ASSET_PRICES); chainlink: an on-chain aggregator (PRICE_FEEDS)" },
      },
    },
  },
} satisfies RestResource;
