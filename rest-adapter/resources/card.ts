import { Type } from "@sinclair/typebox";
import type { RestResource } from "../route-kit/resource-overlay.ts";
import { CardFundingSource, DECIMAL_PATTERN } from "../route-kit/schemas.ts";

// merchant category codes and the last four digits of a card number
const FOUR_DIGITS = "^[0-9]{4}$";
const LIMIT = { pattern: DECIMAL_PATTERN, orNull: { description: "decimal string in the card's currency, null: no limit" } };
const LIMIT_INPUT = { pattern: DECIMAL_PATTERN, maxLength: 80, description: "positive decimal string in the card's currency, at most cents", examples: ["200.00"] };
const mccsInput = (description: string) => ({ maxItems: 200, item: { pattern: FOUR_DIGITS, examples: ["7995"] }, orNull: { description } });
const NICKNAME_INPUT = { maxLength: 64 };

/** A funding source's id in a request: GraphQL's String, or a wallet's integer id (spec 2.3). */
export const FundingSourceId = Type.Union(
  [
    Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: "crypto_wallet: a wallet id of yours (spec 2.3, GET /v0/wallets)", examples: [12] }),
    Type.String({ minLength: 1, maxLength: 64, description: "bank_account: a bank account id of yours (GET /v0/bank-accounts); crypto_wallet also accepts the wallet id in decimal (\"12\"), as it once required", examples: ["bnk_01jd2x3y4z5a6b7c8d9e0f1g2h"] }),
  ],
  { description: "the wallet id (an integer) for crypto_wallet, the bank account id (a string) for bank_account" },
);

/** GraphQL takes any JSON object as a shipping address; REST checks its lines. */
export const ShippingAddress = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    line1: Type.String({ minLength: 1, maxLength: 200 }),
    line2: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    city: Type.String({ minLength: 1, maxLength: 100 }),
    state: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
    postal_code: Type.String({ minLength: 1, maxLength: 20 }),
    country: Type.String({ pattern: "^[A-Z]{2}$", description: "ISO 3166-1 alpha-2", examples: ["DE"] }),
  },
  { additionalProperties: false, description: "physical cards only, and required for them" },
);

/**
 * A card in REST (spec 2.10, 3.3): the GraphQL Card, never its number, CVV or expiry, which only
 * the secure-details reveal answers; its bodies from CreateCardInput, UpdateCardInput and
 * CardFundingSourceInput (PUT /v0/cards/{card_id}/funding).
 */
export const resource = {
  type: "Card",
  inputs: { CreateCardInput: "Card", UpdateCardInput: "Card", CardFundingSourceInput: "CardFundingSource" },
  types: {
    Card: {
      fields: {
        id: { examples: ["crd_01jd2x3y4z5a6b7c8d9e0f1g2h"] },
        status: { description: "pending → active ⇄ suspended → closed (spec 3.3)" },
        currency: { description: "USD or EUR; a crypto wallet settles purchases in USDC or EURC, one to one", examples: ["USD"] },
        last_four: { pattern: FOUR_DIGITS, examples: ["4242"] },
        funding_source: { schema: CardFundingSource },
      },
    },
    // its Wallet is the users subgraph's: GET /v0/wallets/{wallet_id} (the funding_wallet link)
    CardFundingSource: { omit: ["wallet"] },
    CardControls: {
      fields: {
        daily_limit: LIMIT,
        monthly_limit: LIMIT,
        single_transaction_limit: LIMIT,
        allowed_mcc: { item: { pattern: FOUR_DIGITS } },
        blocked_mcc: { item: { pattern: FOUR_DIGITS } },
      },
    },
    CardUsage: {
      description: "how much of each limit the current day and month use, in the holder's time zone (GET /v0/budgets/settings)",
      fields: { time_zone: { examples: ["Europe/Berlin"] }, single_transaction_limit: LIMIT },
    },
    CardLimitUsage: {
      description: "approved and settled purchases in the period (card_purchase transactions not failed); refunds do not give limits back",
      fields: { limit: LIMIT },
    },
    CreateCardInput: {
      fields: { currency: { enum: ["USD", "EUR"], description: "default USD" }, nickname: NICKNAME_INPUT, shipping_address: { schema: ShippingAddress } },
    },
    UpdateCardInput: { minProperties: 1, fields: { nickname: NICKNAME_INPUT } },
    CardControlsInput: {
      description: "spec 2.10; absent: unchanged, null: cleared",
      fields: {
        daily_limit: LIMIT_INPUT,
        monthly_limit: LIMIT_INPUT,
        single_transaction_limit: LIMIT_INPUT,
        allowed_mcc: mccsInput("only these merchant category codes (four digits); null or empty: any"),
        blocked_mcc: mccsInput("these merchant category codes are declined; never together with allowed_mcc (422 CRD-422-001)"),
      },
    },
    CardFundingSourceInput: { fields: { id: { schema: FundingSourceId } } },
  },
} satisfies RestResource;
