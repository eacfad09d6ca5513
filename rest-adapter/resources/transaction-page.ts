import { Type } from "@sinclair/typebox";
import type { RestResource } from "../route-kit/resource-overlay.ts";

const USD = { pattern: "^-?[0-9]+(\\.[0-9]+)?$", description: "USD, exact decimal string" };

/** `date_range`'s instants: epoch milliseconds, which X-Timestamp-Format leaves alone (spec 2.1 converts `*_at`, `timestamp` and `period_*` only). */
export const UnconvertedInstant = Type.Integer();

/** A page of the transaction feed (GET /v0/transactions), written inline with _links: the Transaction components, the pagination and, asked for with meta=true, the meta of spec 2.10. */
export const resource = {
  type: "TransactionPage",
  component: false,
  types: {
    TransactionPage: {
      fields: {
        items: { ref: true },
        meta: { expand: true, description: "only with meta=true; spec 2.10, over every page of the filtered set, computed in SQL" },
      },
    },
    Pagination: { fields: { total: { description: "transactions passing the filters, over all pages" } } },
    TransactionMeta: {
      fields: {
        date_range: {
          description:
            "oldest and newest `timestamp` of the filtered set in epoch milliseconds (null when empty); not converted by X-Timestamp-Format, which spec 2.1 applies to `*_at`, `timestamp` and `period_*` only",
        },
        cashflow: { description: "exact sums of `amount_usd`; failed movements and movements without a price count nothing; net = gross_in − gross_out" },
        categories: { description: "spending (direction out) per category, largest first; an uncategorised outflow counts as `other`; empty when nothing was spent" },
      },
    },
    TransactionDateRange: { fields: { earliest: { schema: UnconvertedInstant }, latest: { schema: UnconvertedInstant } } },
    TransactionCashflow: { fields: { gross_in: USD, gross_out: USD, net: USD } },
    CategoryTotal: { fields: { total_amount: USD } },
  },
} satisfies RestResource;
