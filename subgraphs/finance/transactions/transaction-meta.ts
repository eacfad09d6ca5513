import type { SpendingCategory } from "../../../lib/vocabulary/transactions.ts";
import { Prisma, type FinanceTx } from "../db.ts";
import { transactionCondition, type TransactionFilterInput } from "./transaction-filter.ts";

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
const COUNTED = Prisma.sql`"status" <> 'failed' AND "amount_usd" IS NOT NULL`;

/**
 * The meta of `userId`'s transactions passing `filter`, aggregated in SQL (NUMERIC sums, no row
 * loaded): count and date range, gross in and out and net, and spending (direction out) per
 * category, an uncategorised outflow counting as `other`. Percentages are of gross_out, rounded
 * to 2 decimals, so they sum to 100 within rounding whenever anything was spent.
 */
export async function transactionMeta(tx: FinanceTx, options: { user_id: string; filter?: TransactionFilterInput | null }): Promise<TransactionMetaView> {
  const where = transactionCondition(options.user_id, options.filter ?? {});
  const [[totals], categories] = await Promise.all([
    tx.$queryRaw<{ transaction_count: number; earliest: Date | null; latest: Date | null; gross_in: string; gross_out: string; net: string }[]>`
      SELECT transaction_count, earliest, latest, trim_scale(gross_in)::text AS gross_in, trim_scale(gross_out)::text AS gross_out, trim_scale(gross_in - gross_out)::text AS net
      FROM (
        SELECT count(*)::int AS transaction_count, min("timestamp") AS earliest, max("timestamp") AS latest,
          coalesce(sum("amount_usd") FILTER (WHERE ${COUNTED} AND "direction" = 'in'), 0) AS gross_in,
          coalesce(sum("amount_usd") FILTER (WHERE ${COUNTED} AND "direction" = 'out'), 0) AS gross_out
        FROM "finance"."transactions" WHERE ${where}
      ) totals`,
    tx.$queryRaw<{ category: SpendingCategory; total_amount: string; percentage_of_total: string }[]>`
      SELECT category, trim_scale(total)::text AS total_amount, round(total * 100 / sum(total) OVER (), 2)::text AS percentage_of_total
      FROM (
        SELECT coalesce("category", 'other') AS category, sum("amount_usd") AS total
        FROM "finance"."transactions" WHERE ${where} AND ${COUNTED} AND "direction" = 'out'
        GROUP BY 1
      ) spending
      WHERE total > 0
      ORDER BY total DESC, category`,
  ]);
  return {
    transaction_count: totals!.transaction_count,
    date_range: { earliest: totals!.earliest, latest: totals!.latest },
    cashflow: { gross_in: totals!.gross_in, gross_out: totals!.gross_out, net: totals!.net },
    categories: categories.map((row) => ({ ...row, percentage_of_total: Number(row.percentage_of_total) })),
  };
}
