import type { RestResource } from "../route-kit/resource-overlay.ts";

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
