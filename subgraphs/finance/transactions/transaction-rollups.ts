import { Prisma } from "../db.ts";
import { isUnfiltered, transactionCondition, type TransactionFilterInput } from "./transaction-filter.ts";

/**
 * The filtered set's aggregates per direction, category and status (`direction`, `category`
 * with uncategorised as 'other', `status`, `n`, `earliest`, `latest`, `usd` = sum of amount_usd),
 * the source of the feed's meta and total. Without a filter they are finance.transaction_totals'
 * few rows, each with the whole feed's earliest and latest (from the page's index: the totals keep
 * no date range), so only their min and max over the groups mean anything. When the filters are
 * only rollup dimensions (status, direction, category) and the period, whole UTC months come from
 * finance.transaction_rollups (triggers keep both) and only the partial months at the
 * period's edges from the rows, so the cost does not grow with the user's history; a type,
 * wallet, card, bank account or amount filter reads the rows (on transactions_feed_meta_idx or
 * the user's own indexes).
 */
export function filteredGroupsSql(userId: string, filter: TransactionFilterInput = {}): Prisma.Sql {
  if (isUnfiltered(filter)) {
    const extreme = (fn: "min" | "max") => Prisma.sql`(SELECT ${Prisma.raw(fn)}("timestamp") FROM "finance"."transactions" WHERE "user_id" = ${userId})`;
    return Prisma.sql`SELECT "direction", CASE WHEN "category" = '' THEN 'other' ELSE "category" END AS category, "status", "n", ${extreme("min")} AS earliest, ${extreme("max")} AS latest, "usd"
      FROM "finance"."transaction_totals" WHERE "user_id" = ${userId}`;
  }
  const where = transactionCondition(userId, filter);
  const fromRows = (extra: Prisma.Sql) => Prisma.sql`
    SELECT "direction", coalesce("category", 'other') AS category, "status", count(*) AS n, min("timestamp") AS earliest, max("timestamp") AS latest, sum("amount_usd") AS usd
    FROM "finance"."transactions" WHERE ${where} AND ${extra}
    GROUP BY 1, 2, 3`;
  if (filter.type != null || filter.wallet_id != null || filter.wallet_ids != null || filter.card_id != null || filter.bank_account_id != null || filter.amount_min != null || filter.amount_max != null) return fromRows(Prisma.sql`TRUE`);

  const { fullStart, fullEnd } = wholeMonths(filter.period_start ?? null, filter.period_end ?? null);
  const rollup = [Prisma.sql`"user_id" = ${userId}`];
  for (const column of ["status", "direction", "category"] as const) {
    const value = filter[column];
    if (value != null) rollup.push(Prisma.sql`${Prisma.raw(`"${column}"`)} = ${value}`);
  }
  if (fullStart) rollup.push(Prisma.sql`"month" >= ${fullStart}::timestamptz`);
  if (fullEnd) rollup.push(Prisma.sql`"month" < ${fullEnd}::timestamptz`);
  const parts = [
    Prisma.sql`SELECT "direction", CASE WHEN "category" = '' THEN 'other' ELSE "category" END AS category, "status", "n", "earliest", "latest", "usd"
      FROM "finance"."transaction_rollups" WHERE ${Prisma.join(rollup, " AND ")}`,
  ];
  // the edge months' rows: before the first whole month, from the last one's end; each edge its own
  // narrow range of transactions_feed_period_idx (an OR of the two would scan the whole period).
  // A period inside one month has no whole month (fullStart > fullEnd): all its rows, once.
  if (fullStart && fullEnd && fullStart > fullEnd) parts.push(fromRows(Prisma.sql`TRUE`));
  else {
    if (fullStart) parts.push(fromRows(Prisma.sql`"timestamp" < ${fullStart}::timestamptz`));
    if (fullEnd) parts.push(fromRows(Prisma.sql`"timestamp" >= ${fullEnd}::timestamptz`));
  }
  return Prisma.join(parts, " UNION ALL ");
}

/** The whole UTC months inside [start, end): from the first month start at or after `start` to the last one at or before `end`. */
export function wholeMonths(start: Date | null, end: Date | null): { fullStart: Date | null; fullEnd: Date | null } {
  const monthStart = (instant: Date, offset: number) => new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth() + offset, 1));
  const fullStart = start === null ? null : monthStart(start, 0).getTime() === start.getTime() ? start : monthStart(start, 1);
  const fullEnd = end === null ? null : monthStart(end, 0);
  return { fullStart, fullEnd };
}
