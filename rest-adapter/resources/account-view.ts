import type { RestResource } from "../route-kit/resource-overlay.ts";
import { CardFundingSource } from "../route-kit/schemas.ts";
import { ASSET_BALANCE } from "./asset-balance.ts";

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
