import { Type } from "@sinclair/typebox";
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "../../lib/contracts/transactions.ts";
import { INSIGHT_STATUS_FILTERS, INSIGHT_TYPES } from "../../lib/vocabulary/insights.ts";
import { href, link, pageLinks, type QueryValues } from "../route-kit/links.ts";
import type { RestResource } from "../route-kit/resource-overlay.ts";
import { defineRoute } from "../route-kit/route.ts";
import { Links, literalUnion, PageOffset } from "../route-kit/schemas.ts";
import type * as Generated from "./resources.generated.ts";

/** An insight in REST (spec 2.10 insight types): the GraphQL Insight, its instants in epoch milliseconds. */
export const resource = {
  type: "Insight",
  types: {
    Insight: {
      fields: {
        id: { examples: ["ins_01jd2x3y4z5a6b7c8d9e0f1g2h"] },
        status: { description: "active while the finding stands; resolved once a computation no longer finds it (active again if it returns); dismissed by you, for good" },
        title: { examples: ["Groceries spending is up 85% this month"] },
        description: { examples: ["You have spent 555.00 USD on groceries since Nov 1, 2026, 85% more than your monthly average of 300.00 USD over the previous 3 months."] },
        // REST converts the instants with X-Timestamp-Format too
        data: {
          description:
            "the figures the finding was computed from, by type: money as decimal strings with `currency`, instants under `*_at` and `period_*` names (epoch ms, or ISO 8601 with X-Timestamp-Format), and the `transaction_ids` it rests on where there are some",
          examples: [{ category: "groceries", currency: "USD", period_start: 1793491200000, period_end: 1796083200000, spent: "555", trailing_average: "300", trailing_months: ["280", "300", "320"], increase_percent: 85 }],
        },
      },
    },
  },
} satisfies RestResource;

const InsightId = Type.Object({ insight_id: Type.String({ minLength: 1, maxLength: 64, description: "ins_<id>" }) });
const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT })),
  offset: PageOffset,
};
const InsightPage = Type.Object({
  items: Type.Array(Type.Ref("Insight")),
  pagination: Type.Object({ limit: Type.Integer(), offset: Type.Integer(), total: Type.Integer({ description: "insights passing the filters, over all pages" }) }),
  _links: Links,
});
/** A page of insights, each with `fields`. */
const pageFields = (fields: string) => `items { ${fields} } pagination { limit offset total }`;

const RULES = [
  "Insights are computed from your ledger by a background job a few seconds after your transactions or budgets change (and at once with `POST /v0/insights/refresh`). The five types of spec 2.10:",
  "- `spending_spike`: a category's spending this month (in your time zone, `GET /v0/budgets/settings`) is at least 1.5 times its monthly average over the three months before and at least 50 USD above it, with spending in at least two of those months.",
  "- `recurring_charge`: the same merchant charging a similar amount (within 20% of the latest) at a regular cadence (weekly, biweekly, monthly or quarterly) at least three times in a row, the latest recently enough that it still stands.",
  "- `saving_opportunity`: two or more recurring charges in one of entertainment, utilities, health or shopping (`data.reason` `overlapping_subscriptions`), or at least 5 USD of `fee` transactions over the last 90 days (`fees`).",
  "- `budget_warning`: a budget's current period at 80% (`warning`) or 100% (`critical`) of its amount; reaching 100% supersedes the 80% insight.",
  "- `goal_progress`: 25, 50, 75 and 100% of a savings goal, once savings strategies keep goals (Strategies).",
  "Spending is `out` transactions that are not `failed`, valued in USD (`amount_usd`, or the amount of a USD transaction). Each finding is one insight while it stands: computing again refreshes its figures (`updated_at`) rather than repeating it; one no longer found becomes `resolved` (and `active` again if found again); a dismissed one stays dismissed.",
].join("\n");

function insightLinks(base: string, insight: { id: string; status: string }) {
  const self = href(base, "/v0/insights/{insight_id}", { insight_id: insight.id });
  return {
    self: link(self),
    ...(insight.status !== "dismissed" && { dismiss: link(href(base, "/v0/insights/{insight_id}/dismiss", { insight_id: insight.id }), { method: "POST" }) }),
    list: link(href(base, "/v0/insights")),
  };
}

function listLinks(base: string, query: QueryValues, pagination: { limit: number; offset: number; total: number }) {
  return { ...pageLinks(href(base, "/v0/insights"), query, pagination), refresh: link(href(base, "/v0/insights/refresh"), { method: "POST" }) };
}

/** Its routes, with the selection resources.generated.ts makes from `resource`; that module lists them for the host. */
export const routes = ({ INSIGHT_FIELDS }: typeof Generated) => [
  defineRoute({
    operationId: "listInsights",
    method: "GET",
    path: "/v0/insights",
    tag: "Insights",
    summary: "What your ledger says about your money: spikes, recurring charges, savings, budget warnings",
    description: `Newest first (\`created_at\`, then \`id\`). \`status\` is \`active\` unless you ask for \`resolved\`, \`dismissed\` or \`all\`; \`type\` narrows to one type. \`limit\` 1 to ${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT}), \`offset\` from 0.\n\n${RULES}`,
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { status: "active", limit: 10 },
    query: Type.Object({ type: Type.Optional(literalUnion(INSIGHT_TYPES)), status: Type.Optional(literalUnion(INSIGHT_STATUS_FILTERS, { default: "active" })), ...PageQuery }),
    operation: `query ListInsights($filter: InsightFilter, $page: PageInput) { insights(filter: $filter, page: $page) { ${pageFields(INSIGHT_FIELDS)} } }`,
    variables: ({ query: { limit, offset, ...filter } }) => ({ filter, page: { limit, offset } }),
    result: (data) => data.insights,
    links: (body, { base_url, query }) => listLinks(base_url, query, body.pagination),
    responses: { 200: { description: "One page of insights", schema: InsightPage } },
    errors: ["USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "refreshInsights",
    method: "POST",
    path: "/v0/insights/refresh",
    tag: "Insights",
    summary: "Compute your insights now",
    description: `Runs the computation the background job runs after ledger changes, at once, and answers the first page of your active insights (\`limit\`, \`offset\` as for the list). Safe to repeat: a finding that stands is never repeated.\n\n${RULES}`,
    security: ["PlatformJwt", "PlatformPat"],
    query: Type.Object(PageQuery),
    operation: `mutation RefreshInsights($page: PageInput) { insights: refresh_insights(page: $page) { ${pageFields(INSIGHT_FIELDS)} } }`,
    variables: ({ query }) => ({ page: query }),
    result: (data) => data.insights,
    links: (body, { base_url }) => listLinks(base_url, {}, body.pagination),
    responses: { 200: { description: "Your active insights after computing", schema: InsightPage } },
    errors: ["USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "getInsight",
    method: "GET",
    path: "/v0/insights/{insight_id}",
    tag: "Insights",
    summary: "One of your insights",
    description: "Any status. Another user's insight: 404 `INS-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { insight_id: "ins_01JD4ZK2M8Q7" },
    params: InsightId,
    operation: `query GetInsight($id: ID!) { insight(id: $id) { ${INSIGHT_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.insight_id }),
    result: (data) => data.insight,
    links: (body, { base_url }) => insightLinks(base_url, body),
    responses: { 200: { description: "The insight", schema: Type.Ref("Insight") } },
    errors: ["USR-404-001", "INS-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "dismissInsight",
    method: "POST",
    path: "/v0/insights/{insight_id}/dismiss",
    tag: "Insights",
    summary: "Dismiss one of your insights",
    description:
      "The insight becomes `dismissed` (with `dismissed_at`) and stays so: computing again never brings the same finding back while it stands, though a new period's finding (next month's spike, next week's budget warning) is a new insight. Dismissing it again answers it unchanged. Another user's insight: 404 `INS-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: InsightId,
    operation: `mutation DismissInsight($id: ID!) { insight: dismiss_insight(id: $id) { ${INSIGHT_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.insight_id }),
    result: (data) => data.insight,
    links: (body, { base_url }) => insightLinks(base_url, body),
    responses: { 200: { description: "The dismissed insight", schema: Type.Ref("Insight") } },
    errors: ["USR-403-001", "USR-404-001", "INS-404-001"],
  }),
];
