import type { RestResource } from "../route-kit/resource-overlay.ts";
import { DECIMAL_PATTERN, ChainId, Links, literalUnion } from "../route-kit/schemas.ts";
import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { ASSET_TYPES } from "../../lib/vocabulary/assets.ts";
import type * as Generated from "./resources.generated.ts";

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

const ASSET_SHAPE =
  "An asset is `id` (`ast_` and its symbol in lower case, e.g. `ast_usdc`; stable), `asset_type` (`crypto` or `fiat`), `symbol`, `name`, `decimals` (of the base unit: USDC 6, ETH 18, fiat 2), `contract_addresses` (one `{chain_id, address}` per chain the asset is on, by chain id; `address` null for the chain's native coin, ETH; empty for fiat) and `price` (`value_usd`, USD per whole unit as a decimal string; `timestamp`, when the source observed it; `stale`, true once older than `PRICE_MAX_AGE_SECONDS`; `source`, `static` for the configured prices or `chainlink` for an on-chain aggregator). Prices are cached for `PRICE_CACHE_SECONDS`; when the source cannot be read the last price is answered (and turns stale), and `price` is null while no price is known.";

function assetLinks(base: string, asset: { id: string }) {
  return {
    self: link(href(base, "/v0/assets/{asset_id}", { asset_id: asset.id })),
    list: link(href(base, "/v0/assets")),
  };
}

export const routes = ({ ASSET_FIELDS }: typeof Generated) => [
  defineRoute({
    operationId: "listAssets",
    method: "GET",
    path: "/v0/assets",
    tag: "Assets",
    summary: "The asset catalogue, with USD prices",
    description: [
      ASSET_SHAPE,
      "",
      "Filters combine with AND: `asset_type`; `chain_id`, the crypto assets on that chain (a token contract or the native coin there), which with `asset_type=fiat` is refused (422, `GEN-422-001` at `query.chain_id`: fiat has no chain); `symbol`, in any case. The catalogue is small and answered whole (`items`, crypto then fiat, each by symbol), without pages.",
    ].join("\n"),
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:balances",
    agentExample: { asset_type: "crypto", symbol: "ETH" },
    query: Type.Object({
      asset_type: Type.Optional(literalUnion(ASSET_TYPES)),
      chain_id: Type.Optional({ ...ChainId, description: "crypto assets on this chain; not with asset_type=fiat" }),
      symbol: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: "any case", examples: ["usdc"] })),
    }),
    operation: `query ListAssets($asset_type: AssetType, $chain_id: Int, $symbol: String) { assets(asset_type: $asset_type, chain_id: $chain_id, symbol: $symbol) { ${ASSET_FIELDS} } }`,
    variables: ({ query }) => ({ asset_type: query.asset_type ?? null, chain_id: query.chain_id ?? null, symbol: query.symbol ?? null }),
    result: (data) => ({ items: data.assets }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/assets")) }),
    responses: { 200: { description: "The assets", schema: Type.Object({ items: Type.Array(Type.Ref("Asset")), _links: Links }) } },
    errors: ["USR-404-001"],
  }),
  defineRoute({
    operationId: "getAsset",
    method: "GET",
    path: "/v0/assets/{asset_id}",
    tag: "Assets",
    summary: "One asset of the catalogue",
    description: `${ASSET_SHAPE}\n\nAn id not in the catalogue: 404 \`AST-404-001\`.`,
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:balances",
    agentExample: { asset_id: "ast_eth" },
    params: Type.Object({ asset_id: Type.String({ minLength: 1, maxLength: 64, description: "ast_<symbol in lower case>", examples: ["ast_usdc"] }) }),
    operation: `query GetAsset($id: ID!) { asset(id: $id) { ${ASSET_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.asset_id }),
    result: (data) => data.asset,
    links: (body, { base_url }) => assetLinks(base_url, body),
    responses: { 200: { description: "The asset", schema: Type.Ref("Asset") } },
    errors: ["USR-404-001", "AST-404-001"],
  }),
];
