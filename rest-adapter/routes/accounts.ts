import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route.ts";
import { href, link } from "../links.ts";
import { cardFundingSource, Links, literalUnion } from "../schemas.ts";
import { ASSET_BALANCE_FIELDS, AssetBalance } from "../resources.generated.ts";
import { ACCOUNT_SOURCES } from "../../lib/vocabulary/assets.ts";
import { CARD_STATUSES } from "../../lib/vocabulary/cards.ts";
import { BALANCE_RULES } from "./wallet-assets.ts";
import { restCard } from "./cards.ts";

const UsdTotal = Type.String({ pattern: "^-?[0-9]+(\\.[0-9]+)?$", examples: ["3025.5"] });

const Account = Type.Object({
  source: literalUnion(ACCOUNT_SOURCES),
  source_id: Type.String({ description: "the source's id as a string: the wallet id for crypto_wallet, the bank account id (`GET /v0/bank-accounts/{bank_account_id}`) for bank_account, the card id for card", examples: ["12"] }),
  name: Type.Union([Type.String(), Type.Null()], { description: "the wallet's nickname; the bank account's name at its bank; a card's nickname, else `Virtual card •••• 1234` (or `Physical card …`)" }),
  chain_id: Type.Union([Type.Integer(), Type.Null()], { description: "crypto_wallet: its chain; null for other sources" }),
  address: Type.Union([Type.String(), Type.Null()], { description: "crypto_wallet: its address (null while a Safe is deployed); null for other sources" }),
  balances: Type.Array(AssetBalance),
  total_value_usd: { ...UsdTotal, description: "exact sum of the balances' value_usd (balances without a price count for nothing)" },
  card: Type.Union(
    [
      Type.Object({
        status: literalUnion(CARD_STATUSES),
        currency: Type.String({ examples: ["USD"] }),
        funding_source: cardFundingSource(),
      }),
      Type.Null(),
    ],
    { description: "source card: its status, currency and the funding source its purchases debit; null for other sources" },
  ),
});

export const accountRoutes = [
  defineRoute({
    operationId: "listAccounts",
    method: "GET",
    path: "/v0/accounts",
    tag: "Accounts",
    summary: "The unified account view: every account with its balances and USD totals",
    description: [
      "One entry per source (`source`: `crypto_wallet`, `bank_account`, `card`, spec 2.10), each with `source_id`, `name`, `balances` (the shape of `GET /v0/wallets/{wallet_id}/assets`; fiat currencies are catalogue assets, so bank accounts and cards take the same shape) and `total_value_usd`; `total_value_usd` at the top is the exact sum over all entries. The entries are your wallets (EOA and Safe, by wallet id; signer addresses are not accounts), then your linked bank accounts (oldest first; unlinked ones are left out), then your cards that are not closed (oldest first). `chain_id` and `address` are set for crypto wallets only.",
      "A bank account's `balances` hold its currency (a fiat catalogue asset, in cents for USD and EUR) at the balance its bank last reported, and nothing while the bank reported none or zero; `value_usd` uses the currency's USD price. Card purchases the bank has not posted yet are in `GET /v0/transactions`, not in this figure.",
      "A card holds no money of its own: its purchases and refunds move its funding source: a wallet, in USDC or EURC one to one, whose entry already counts them, or a bank account in the card's currency, whose entry counts them once its bank posts them. So a card's entry has `balances: []` and `total_value_usd: \"0\"` (nothing is counted twice) and says in `card` its `status`, `currency` and `funding_source`; what it may still spend is in `GET /v0/cards/{card_id}` (`usage`) and the funding source's entry.",
      "",
      BALANCE_RULES,
    ].join("\n"),
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:balances",
    agentExample: {},
    operation: `query ListAccounts { me { accounts { items { source source_id name chain_id address balances { ${ASSET_BALANCE_FIELDS} } total_value_usd card { status currency funding_source { type id } } } total_value_usd } } }`,
    variables: () => ({}),
    result: (data) => ({ ...data.me.accounts, items: data.me.accounts.items.map((item) => ({ ...item, card: item.card && restCard(item.card) })) }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/accounts")), wallets: link(href(base_url, "/v0/wallets")), bank_accounts: link(href(base_url, "/v0/bank-accounts")), cards: link(href(base_url, "/v0/cards")) }),
    responses: { 200: { description: "Your accounts", schema: Type.Object({ items: Type.Array(Account), total_value_usd: UsdTotal, _links: Links }) } },
    errors: ["USR-404-001", "CHN-502-001", "AGT-403-003"],
  }),
];
