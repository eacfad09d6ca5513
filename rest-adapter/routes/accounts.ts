import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route.ts";
import { href, link } from "../links.ts";
import { Links, literalUnion } from "../schemas.ts";
import { ASSET_BALANCE_FIELDS } from "../graphql-fields.ts";
import { ACCOUNT_SOURCES } from "../../lib/vocabulary/assets.ts";
import { AssetBalanceSchema, BALANCE_RULES } from "./wallet-assets.ts";

const UsdTotal = Type.String({ pattern: "^-?[0-9]+(\\.[0-9]+)?$", examples: ["3025.5"] });

const Account = Type.Object({
  source: literalUnion(ACCOUNT_SOURCES),
  source_id: Type.String({ description: "the source's id as a string: the wallet id for crypto_wallet", examples: ["12"] }),
  name: Type.Union([Type.String(), Type.Null()], { description: "the wallet's nickname" }),
  chain_id: Type.Union([Type.Integer(), Type.Null()], { description: "crypto_wallet: its chain; null for other sources" }),
  address: Type.Union([Type.String(), Type.Null()], { description: "crypto_wallet: its address (null while a Safe is deployed); null for other sources" }),
  balances: Type.Array(AssetBalanceSchema),
  total_value_usd: { ...UsdTotal, description: "exact sum of the balances' value_usd (balances without a price count for nothing)" },
});

export const accountRoutes = [
  defineRoute({
    operationId: "listAccounts",
    method: "GET",
    path: "/v0/accounts",
    tag: "Accounts",
    summary: "The unified account view: every account with its balances and USD totals",
    description: [
      "One entry per source (`source`: `crypto_wallet`, `bank_account`, `card`, spec 2.10), each with `source_id`, `name`, `balances` (the shape of `GET /v0/wallets/{wallet_id}/assets`; fiat currencies are catalogue assets, so bank accounts and cards take the same shape) and `total_value_usd`; `total_value_usd` at the top is the exact sum over all entries. Today the entries are your wallets (EOA and Safe, by wallet id; signer addresses are not accounts); bank accounts and cards are added as they are linked. `chain_id` and `address` are set for crypto wallets only.",
      "",
      BALANCE_RULES,
    ].join("\n"),
    security: ["PlatformJwt", "PlatformPat"],
    operation: `query ListAccounts { me { accounts { items { source source_id name chain_id address balances { ${ASSET_BALANCE_FIELDS} } total_value_usd } total_value_usd } } }`,
    variables: () => ({}),
    result: (data) => data.me.accounts,
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/accounts")), wallets: link(href(base_url, "/v0/wallets")) }),
    responses: { 200: { description: "Your accounts", schema: Type.Object({ items: Type.Array(Account), total_value_usd: UsdTotal, _links: Links }) } },
    errors: ["USR-404-001", "CHN-502-001"],
  }),
];
