import type { RestResource, TypeOverlay } from "../route-kit/resource-overlay.ts";
import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { Links } from "../route-kit/schemas.ts";
import type * as Generated from "./resources.generated.ts";

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

export const BALANCE_RULES =
  "Balances come from `BALANCE_SOURCE`: `ledger` (the default) sums the completed ledger movements booked against the wallet (sandbox deposits included; pending ones do not count yet); `chain` reads the wallet's address on its chain when `CHAIN_RPC_URLS` covers it (the native coin and every ERC-20 of the asset catalogue on that chain, in one Multicall3 call, cached `BALANCE_CACHE_SECONDS`; an unreachable node is 502 `CHN-502-001`), and keeps the ledger for other chains and for Safes not deployed yet. Only non-zero balances are listed, by symbol. `value_usd` uses the asset's current price (`GET /v0/assets/{asset_id}`).";

export const routes = ({ ASSET_BALANCE_FIELDS, AssetBalance }: typeof Generated) => [
  defineRoute({
    operationId: "listWalletAssets",
    method: "GET",
    path: "/v0/wallets/{wallet_id}/assets",
    tag: "Wallet Assets",
    summary: "What one of your wallets holds, with USD values",
    description: `${BALANCE_RULES}\n\nA wallet that is not yours (or deleted): 404 \`WAL-404-001\`.`,
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:balances",
    agentExample: { wallet_id: 12 },
    params: Type.Object({ wallet_id: Type.Integer({ minimum: 1 }) }),
    operation: `query ListWalletAssets($id: Int!) { wallet(id: $id) { id assets { ${ASSET_BALANCE_FIELDS} } } }`,
    variables: ({ params }) => ({ id: params.wallet_id }),
    result: (data) => ({ wallet_id: data.wallet.id, assets: data.wallet.assets }),
    links: (body, { base_url }) => ({
      self: link(href(base_url, "/v0/wallets/{wallet_id}/assets", { wallet_id: body.wallet_id })),
      wallet: link(href(base_url, "/v0/wallets/{wallet_id}", { wallet_id: body.wallet_id })),
      transactions: link(`${href(base_url, "/v0/transactions")}?wallet_id=${body.wallet_id}`),
    }),
    responses: {
      200: {
        description: "The wallet's assets",
        schema: Type.Object({ wallet_id: Type.Integer(), assets: Type.Array(AssetBalance), _links: Links }),
      },
    },
    errors: ["USR-404-001", "WAL-404-001", "CHN-502-001"],
  }),
];
