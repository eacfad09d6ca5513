import type { RestResource } from "../route-kit/resource-overlay.ts";
import { DECIMAL_PATTERN } from "../route-kit/schemas.ts";

const AMOUNT_INPUT = { pattern: DECIMAL_PATTERN, maxLength: 80, description: "positive decimal string in currency units, at most the currency's decimals", examples: ["250.00"] };
const CURRENCY_INPUT = { minLength: 1, maxLength: 32, description: "a symbol of the asset catalogue (GET /v0/assets), any case; default USD", examples: ["EUR"] };
const BOUNDS_INPUT = {
  period_start: { description: "custom budgets only: start (inclusive), epoch milliseconds" },
  period_end: { description: "custom budgets only: end (exclusive), epoch milliseconds" },
};

/** A budget in REST (spec 2.10): the GraphQL Budget, money as decimal strings; its bodies from CreateBudgetInput and UpdateBudgetInput. */
export const resource = {
  type: "Budget",
  inputs: { CreateBudgetInput: "Budget", UpdateBudgetInput: "Budget" },
  types: {
    Budget: {
      fields: {
        id: { examples: ["bgt_01jd2x3y4z5a6b7c8d9e0f1g2h"] },
        amount: { pattern: DECIMAL_PATTERN, examples: ["250"] },
        currency: { description: "a symbol of the asset catalogue (GET /v0/assets)", examples: ["USD"] },
        period: { description: "weekly: resets Monday 00:00; monthly: on the 1st 00:00, in time_zone; custom: its own bounds" },
        time_zone: { description: "IANA zone the current period was computed in (GET /v0/budgets/settings)", examples: ["Europe/Berlin"] },
        spent: { pattern: DECIMAL_PATTERN, description: "completed, pending and processing out transactions of the category in [period_start, period_end)", examples: ["187.4"] },
        remaining: { pattern: "^-?[0-9]+(\\.[0-9]+)?$", examples: ["62.6"] },
        percentage_used: { examples: [74.96] },
      },
    },
    // the currency REST refuses null for on creation: absent means USD
    CreateBudgetInput: { fields: { amount: AMOUNT_INPUT, currency: { ...CURRENCY_INPUT, acceptsNull: false }, ...BOUNDS_INPUT } },
    UpdateBudgetInput: { fields: { amount: AMOUNT_INPUT, currency: CURRENCY_INPUT, ...BOUNDS_INPUT } },
  },
} satisfies RestResource;
