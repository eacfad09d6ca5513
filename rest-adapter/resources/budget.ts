import { Type } from "@sinclair/typebox";
import { href, link } from "../route-kit/links.ts";
import type { RestResource } from "../route-kit/resource-overlay.ts";
import { defineRoute } from "../route-kit/route.ts";
import { DECIMAL_PATTERN, Links } from "../route-kit/schemas.ts";
import type * as Generated from "./resources.generated.ts";

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

const BudgetId = Type.Object({ budget_id: Type.String({ minLength: 1, maxLength: 64, description: "bgt_<id>" }) });
const Settings = Type.Object({ time_zone: Type.String({ description: "IANA time zone where budget periods begin", examples: ["Europe/Berlin"] }), _links: Type.Optional(Links) });

const FIGURES =
  "`spent` sums, exactly (NUMERIC in SQL), the `out` transactions of the budget's `category` that are `completed`, `pending` or `processing` (never `failed`) with `timestamp` in the current period `[period_start, period_end)`; incoming money (refunds included) does not reduce it. " +
  "A `USD` budget counts each transaction by its `amount_usd` (a USD transaction by its amount; one with no USD value yet is left out); a budget in another currency or asset counts only transactions in that currency or asset, by their amount. " +
  "`remaining` is `amount − spent` (negative once overspent) and `percentage_used` `spent / amount × 100` rounded to two decimals. " +
  "The current period: `weekly` from Monday 00:00 to the next Monday, `monthly` from the 1st 00:00 to the next 1st, both in the user's time zone (`time_zone`, see `GET /v0/budgets/settings`; default UTC, daylight-saving changes included); `custom` is the budget's own `period_start`/`period_end`.";

function budgetLinks(base: string, budget: { id: string; category: string }) {
  const self = href(base, "/v0/budgets/{budget_id}", { budget_id: budget.id });
  return {
    self: link(self),
    update: link(self, { method: "PATCH" }),
    delete: link(self, { method: "DELETE" }),
    list: link(href(base, "/v0/budgets")),
    transactions: link(`${href(base, "/v0/transactions")}?category=${encodeURIComponent(budget.category)}&direction=out`, { description: "the category's spending" }),
  };
}

/** Its routes, with the selection and bodies resources.generated.ts makes from `resource`; that module lists them for the host. */
export const routes = ({ BUDGET_FIELDS, CreateBudgetInput, UpdateBudgetInput }: typeof Generated) => [
  defineRoute({
    operationId: "listBudgets",
    method: "GET",
    path: "/v0/budgets",
    tag: "Budgets",
    summary: "The user's budgets with the current period's spending",
    description: FIGURES,
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: {},
    operation: `query ListBudgets { budgets { ${BUDGET_FIELDS} } }`,
    variables: () => ({}),
    result: (data) => ({ items: data.budgets }),
    links: (_body, { base_url }) => ({
      self: link(href(base_url, "/v0/budgets")),
      create: link(href(base_url, "/v0/budgets"), { method: "POST" }),
      settings: link(href(base_url, "/v0/budgets/settings")),
    }),
    responses: { 200: { description: "The budgets, oldest first", schema: Type.Object({ items: Type.Array(Type.Ref("Budget")), _links: Links }) } },
    errors: ["USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "createBudget",
    method: "POST",
    path: "/v0/budgets",
    tag: "Budgets",
    summary: "Create a budget for one category and period",
    description:
      "One budget per category and period (a second weekly `groceries` budget: 409 `BGT-409-001`; update the first instead). `currency` must be a symbol of the asset catalogue (422 `BGT-422-001`), `amount` a positive decimal string with at most its decimals. " +
      "`period_start` and `period_end` are required for `custom` (end after start) and refused for `weekly` and `monthly` (422). " +
      FIGURES,
    security: ["PlatformJwt", "PlatformPat"],
    body: CreateBudgetInput,
    operation: `mutation CreateBudget($input: CreateBudgetInput!) { budget: create_budget(input: $input) { ${BUDGET_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.budget,
    status: 201,
    links: (body, { base_url }) => budgetLinks(base_url, body),
    responses: { 201: { description: "The budget, with the current period's figures", schema: Type.Ref("Budget") } },
    errors: ["USR-403-001", "USR-404-001", "BGT-409-001", "BGT-422-001"],
  }),
  defineRoute({
    operationId: "getBudgetSettings",
    method: "GET",
    path: "/v0/budgets/settings",
    tag: "Budgets",
    summary: "Where the user's budget periods begin",
    description: "`time_zone`: the IANA zone whose Mondays and 1sts start weekly and monthly periods; `UTC` until set.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: {},
    operation: `query GetBudgetSettings { settings: budget_settings { time_zone } }`,
    variables: () => ({}),
    result: (data) => data.settings,
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/budgets/settings")), update: link(href(base_url, "/v0/budgets/settings"), { method: "PATCH" }), budgets: link(href(base_url, "/v0/budgets")) }),
    responses: { 200: { description: "The settings", schema: Settings } },
    errors: ["USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "updateBudgetSettings",
    method: "PATCH",
    path: "/v0/budgets/settings",
    tag: "Budgets",
    summary: "Set the time zone of the user's budget periods",
    description: "`time_zone` is an IANA name (`Europe/Berlin`, `America/New_York`, `UTC`), stored in its canonical spelling; offsets such as `+01:00` and unknown names are 422. Every weekly and monthly budget's current period follows it at once.",
    security: ["PlatformJwt", "PlatformPat"],
    body: Type.Object({ time_zone: Type.String({ minLength: 1, maxLength: 64, examples: ["Europe/Berlin"] }) }),
    operation: `mutation UpdateBudgetSettings($input: UpdateBudgetSettingsInput!) { settings: update_budget_settings(input: $input) { time_zone } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.settings,
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/budgets/settings")), budgets: link(href(base_url, "/v0/budgets")) }),
    responses: { 200: { description: "The settings", schema: Settings } },
    errors: ["USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "getBudget",
    method: "GET",
    path: "/v0/budgets/{budget_id}",
    tag: "Budgets",
    summary: "One budget of the user with the current period's spending",
    description: `Another user's budget: 404 \`BGT-404-001\`. ${FIGURES}`,
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { budget_id: "bgt_01JD4ZK2M8Q7" },
    params: BudgetId,
    operation: `query GetBudget($id: ID!) { budget(id: $id) { ${BUDGET_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.budget_id }),
    result: (data) => data.budget,
    links: (body, { base_url }) => budgetLinks(base_url, body),
    responses: { 200: { description: "The budget", schema: Type.Ref("Budget") } },
    errors: ["USR-404-001", "BGT-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "updateBudget",
    method: "PATCH",
    path: "/v0/budgets/{budget_id}",
    tag: "Budgets",
    summary: "Change a budget",
    description:
      "Fields absent or null stay as they are; the result is checked as a whole, like a new budget. Moving a `custom` budget to `weekly` or `monthly` drops its bounds; moving to `custom` needs both. Taking the category and period of another budget: 409 `BGT-409-001`. Another user's budget: 404 `BGT-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: BudgetId,
    body: UpdateBudgetInput,
    operation: `mutation UpdateBudget($id: ID!, $input: UpdateBudgetInput!) { budget: update_budget(id: $id, input: $input) { ${BUDGET_FIELDS} } }`,
    variables: ({ params, body }) => ({ id: params.budget_id, input: body }),
    result: (data) => data.budget,
    links: (body, { base_url }) => budgetLinks(base_url, body),
    responses: { 200: { description: "The updated budget", schema: Type.Ref("Budget") } },
    errors: ["USR-403-001", "USR-404-001", "BGT-404-001", "BGT-409-001", "BGT-422-001"],
  }),
  defineRoute({
    operationId: "deleteBudget",
    method: "DELETE",
    path: "/v0/budgets/{budget_id}",
    tag: "Budgets",
    summary: "Delete a budget",
    description: "Another user's budget: 404 `BGT-404-001`. The transactions it counted are untouched.",
    security: ["PlatformJwt", "PlatformPat"],
    params: BudgetId,
    operation: `mutation DeleteBudget($id: ID!) { deleted: delete_budget(id: $id) }`,
    variables: ({ params }) => ({ id: params.budget_id }),
    result: () => undefined,
    status: 204,
    responses: { 204: { description: "Deleted" } },
    errors: ["USR-403-001", "USR-404-001", "BGT-404-001"],
  }),
];
