import type { RestResource } from "../route-kit/resource-overlay.ts";
import { CardFundingSource, withLinks } from "../route-kit/schemas.ts";
import { ASSET_BALANCE, BALANCE_RULES } from "./asset-balance.ts";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { restCard } from "./card.ts";
import type * as Generated from "./resources.generated.ts";

const USD_TOTAL = { pattern: "^-?[0-9]+(\\.[0-9]+)?$", examples: ["3025.5"] };

/** The unified account view in REST (GET /v0/accounts), written inline with _links; a card's funding source as cards answer it. */
export const resource = {
  type: "AccountView",
  component: false,
  types: {
    AccountView: { fields: { total_value_usd: USD_TOTAL } },
    Account: {
      fields: {
        source_id: {
          description: "the source's id as a string: the wallet id for crypto_wallet, the bank account id (`GET /v0/bank-accounts/{bank_account_id}`) for bank_account, the card id for card",
          examples: ["12"],
        },
        name: { orNull: { description: "the wallet's nickname; the bank account's name at its bank; a card's nickname, else `Virtual card •••• 1234` (or `Physical card …`)" } },
        total_value_usd: { ...USD_TOTAL, description: "exact sum of the balances' value_usd (balances without a price count for nothing)" },
        card: { orNull: { description: "source card: its status, currency and the funding source its purchases debit; null for other sources" } },
      },
    },
    AssetBalance: ASSET_BALANCE,
    AccountCard: { fields: { currency: { examples: ["USD"] }, funding_source: { schema: CardFundingSource } } },
  },
} satisfies RestResource;

export const routes = ({ ACCOUNT_VIEW_FIELDS, AccountView }: typeof Generated) => [
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
    operation: `query ListAccounts { me { accounts { ${ACCOUNT_VIEW_FIELDS} } } }`,
    variables: () => ({}),
    result: (data) => ({ ...data.me.accounts, items: data.me.accounts.items.map((item) => ({ ...item, card: item.card && restCard(item.card) })) }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/accounts")), wallets: link(href(base_url, "/v0/wallets")), bank_accounts: link(href(base_url, "/v0/bank-accounts")), cards: link(href(base_url, "/v0/cards")) }),
    responses: { 200: { description: "Your accounts", schema: withLinks(AccountView) } },
    errors: ["USR-404-001", "CHN-502-001", "AGT-403-003"],
  }),
];
