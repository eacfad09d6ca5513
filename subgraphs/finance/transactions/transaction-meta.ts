import type { SpendingCategory } from "../../../lib/vocabulary/transactions.ts";
import { Prisma, type FinanceTx } from "../db.ts";
import type { TransactionFilterInput } from "./transaction-filter.ts";
import { filteredGroupsSql } from "./transaction-rollups.ts";

/** Spec 2.10's feed `meta`, over the whole filtered set (not the page); USD figures are decimal strings. */
export interface TransactionMetaView {
  transaction_count: number;
  date_range: { earliest: Date | null; latest: Date | null };
  cashflow: { gross_in: string; gross_out: string; net: string };
  categories: { category: SpendingCategory; total_amount: string; percentage_of_total: number }[];
}

/**
 * Money that moved, in USD: failed movements moved nothing and a movement without a price
 * (amount_usd null) has no USD value, so neither counts in cashflow or categories; both still
 * count in transaction_count and date_range.
 */
const COUNTED_USD = Prisma.sql`sum(usd) FILTER (WHERE "status" <> 'failed')`;

/**
 * The meta query of `userId`'s transactions passing `filter`, from the filtered set's aggregates
 * (filteredGroupsSql: rollups and edge rows, or the rows): groups per direction and category,
 * then the totals and the spending per category from them. `spent`, the spending's sum (each
 * percentage's divisor), is taken with the totals in one pass over the groups, not by a window
 * over the spending rows: one plan node and one CTE fewer per execution (issue 30).
 */
export function transactionMetaSql(userId: string, filter: TransactionFilterInput = {}): Prisma.Sql {
  return Prisma.sql`
    WITH parts AS (${filteredGroupsSql(userId, filter)}), groups AS (
      SELECT "direction", category, sum(n) AS n, min(earliest) AS earliest, max(latest) AS latest, ${COUNTED_USD} AS usd
      FROM parts GROUP BY 1, 2
    ), totals AS (
      SELECT coalesce(sum(n), 0)::int AS transaction_count, min(earliest) AS earliest, max(latest) AS latest,
        coalesce(sum(usd) FILTER (WHERE "direction" = 'in'), 0) AS gross_in, coalesce(sum(usd) FILTER (WHERE "direction" = 'out'), 0) AS gross_out,
        sum(usd) FILTER (WHERE ${SPENDING}) AS spent
      FROM groups
    )
    SELECT transaction_count, earliest, latest, trim_scale(gross_in)::text AS gross_in, trim_scale(gross_out)::text AS gross_out, trim_scale(gross_in - gross_out)::text AS net,
      (SELECT coalesce(json_agg(json_build_object('category', category, 'total_amount', trim_scale(usd)::text, 'percentage_of_total', round(usd * 100 / spent, 2)::text) ORDER BY usd DESC, category), '[]')
       FROM groups WHERE ${SPENDING}) AS categories
    FROM totals`;
}

/** A group that is spending: money out, of a positive USD value. */
const SPENDING = Prisma.sql`"direction" = 'out' AND usd > 0`;

/** A row of transactionMetaSql. */
export type MetaRow = { transaction_count: number; earliest: Date | null; latest: Date | null; gross_in: string; gross_out: string; net: string; categories: { category: SpendingCategory; total_amount: string; percentage_of_total: string }[] };

/** The meta of a row of transactionMetaSql. */
export function metaView(meta: MetaRow): TransactionMetaView {
  return {
    transaction_count: meta.transaction_count,
    date_range: { earliest: meta.earliest, latest: meta.latest },
    cashflow: { gross_in: meta.gross_in, gross_out: meta.gross_out, net: meta.net },
    categories: meta.categories.map((row) => ({ ...row, percentage_of_total: Number(row.percentage_of_total) })),
  };
}

/**
 * The meta of `userId`'s transactions passing `filter`, aggregated in SQL (NUMERIC sums, no row
 * loaded): count and date range, gross in and out and net, and spending (direction out) per
 * category, an uncategorised outflow counting as `other`. Percentages are of gross_out, rounded
 * to 2 decimals, so they sum to 100 within rounding whenever anything was spent.
 */
export async function transactionMeta(tx: FinanceTx, options: { user_id: string; filter?: TransactionFilterInput | null }): Promise<TransactionMetaView> {
  const [meta] = await tx.$queryRaw<MetaRow[]>(transactionMetaSql(options.user_id, options.filter ?? {}));
  return metaView(meta!);
}
