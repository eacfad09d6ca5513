import { SPENDING_CATEGORIES, type SpendingCategory } from "../../../lib/vocabulary/transactions.ts";
import { calendarPeriod, startOfLocalDay, wallClock } from "../budgets/budget-period.ts";
import { Prisma, type FinanceTx } from "../db.ts";
import { merchantKey } from "../transactions/merchant-category-rules.ts";
import type { MerchantCharges } from "./recurring-charges.ts";
import { FEE_WINDOW_DAYS, type FeesPaid } from "./saving-opportunities.ts";
import { TRAILING_MONTHS, type SpikeInput } from "./spending-spike.ts";

/**
 * What the insight rules read from the ledger, aggregated in SQL over bounded windows (never a
 * user's whole history in memory). Spending is `out` movements that are not failed, valued in USD
 * as budgets value them: a USD movement by its amount, any other by its `amount_usd`.
 */
const SPENDING = Prisma.sql`"direction" = 'out' AND "status" <> 'failed'`;
const USD_VALUE = Prisma.sql`CASE WHEN "currency" = 'USD' THEN "amount" ELSE "amount_usd" END`;

/** How far back recurring charges are looked for, and how many charges per merchant are read. */
export const RECURRING_WINDOW_DAYS = 400;
export const CHARGES_PER_MERCHANT = 13;

const DAY_MS = 86_400_000;

function monthLabel(year: number, month: number): string {
  const normalised = new Date(Date.UTC(year, month - 1, 1));
  return `${normalised.getUTCFullYear()}-${String(normalised.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** The current month in `timeZone` and its label. */
export function currentMonth(now: Date, timeZone: string): SpikeInput["month"] {
  const local = wallClock(now.getTime(), timeZone);
  return { ...calendarPeriod("monthly", now, timeZone), label: monthLabel(local.year, local.month) };
}

/** USD spending per category this month and in each of the TRAILING_MONTHS months before (user's zone). */
export async function categorySpends(tx: FinanceTx, userId: string, now: Date, timeZone: string): Promise<SpikeInput> {
  const month = currentMonth(now, timeZone);
  const local = wallClock(now.getTime(), timeZone);
  // month starts, oldest first: the trailing months, then the current one
  const starts = Array.from({ length: TRAILING_MONTHS + 1 }, (_, i) => startOfLocalDay(local.year, local.month - TRAILING_MONTHS + i, 1, timeZone));
  const bounds = [...starts, month.end];
  const columns = starts.map((start, i) => Prisma.sql`trim_scale(coalesce(sum(${USD_VALUE}) FILTER (WHERE "timestamp" >= ${start} AND "timestamp" < ${bounds[i + 1]!}), 0))::text AS ${Prisma.raw(`m${i}`)}`);
  const rows = await tx.$queryRaw<Record<string, string>[]>`
    SELECT coalesce("category", 'other') AS category, ${Prisma.join(columns)}
    FROM "finance"."transactions"
    WHERE "user_id" = ${userId} AND ${SPENDING} AND "timestamp" >= ${bounds[0]!} AND "timestamp" < ${month.end}
    GROUP BY 1`;
  const spends = rows
    .filter((row) => (SPENDING_CATEGORIES as readonly string[]).includes(row.category!))
    .map((row) => ({
      category: row.category as SpendingCategory,
      current: row[`m${TRAILING_MONTHS}`]!,
      previous: Array.from({ length: TRAILING_MONTHS }, (_, i) => row[`m${i}`]!),
    }));
  return { month, time_zone: timeZone, spends };
}

interface ChargeRow {
  id: string;
  merchant_name: string;
  category: string | null;
  unit: string;
  amount: string;
  timestamp: Date;
}

/** Each merchant's latest CHARGES_PER_MERCHANT outgoing charges per unit in the window, newest first. */
export async function merchantCharges(tx: FinanceTx, userId: string, now: Date): Promise<MerchantCharges[]> {
  const since = new Date(now.getTime() - RECURRING_WINDOW_DAYS * DAY_MS);
  const rows = await tx.$queryRaw<ChargeRow[]>`
    SELECT "id", "merchant_name", "category", "unit", "amount"::text AS amount, "timestamp"
    FROM (
      SELECT "id", "merchant_name", "category", coalesce("asset_symbol", "currency") AS unit, "amount", "timestamp",
        row_number() OVER (PARTITION BY lower(btrim("merchant_name")), coalesce("asset_symbol", "currency") ORDER BY "timestamp" DESC, "id" DESC) AS n
      FROM "finance"."transactions"
      WHERE "user_id" = ${userId} AND ${SPENDING} AND "merchant_name" IS NOT NULL AND "timestamp" >= ${since} AND "timestamp" <= ${now}
    ) latest
    WHERE n <= ${CHARGES_PER_MERCHANT}
    ORDER BY "timestamp" DESC, "id" DESC`;
  const merchants = new Map<string, MerchantCharges>();
  for (const row of rows) {
    const key = `${merchantKey(row.merchant_name)}\u0000${row.unit}`;
    let merchant = merchants.get(key);
    if (!merchant) {
      // the newest charge names the merchant and its category
      merchant = { merchant_key: merchantKey(row.merchant_name), merchant_name: row.merchant_name.trim(), category: row.category, unit: row.unit, charges: [] };
      merchants.set(key, merchant);
    }
    merchant.charges.push({ id: row.id, amount: row.amount, timestamp: row.timestamp });
  }
  return [...merchants.values()];
}

/** USD paid in `fee` movements over the last FEE_WINDOW_DAYS days. */
export async function feesPaid(tx: FinanceTx, userId: string, now: Date, timeZone: string): Promise<FeesPaid> {
  const since = new Date(now.getTime() - FEE_WINDOW_DAYS * DAY_MS);
  const [row] = await tx.$queryRaw<{ total: string; count: number; ids: string[] | null }[]>`
    SELECT trim_scale(coalesce(sum(${USD_VALUE}), 0))::text AS total, count(*)::int AS count,
      (array_agg("id" ORDER BY "timestamp" DESC, "id" DESC))[1:12] AS ids
    FROM "finance"."transactions"
    WHERE "user_id" = ${userId} AND ${SPENDING} AND "type" = 'fee' AND "timestamp" >= ${since} AND "timestamp" <= ${now}`;
  return { total: row!.total, count: row!.count, transaction_ids: row!.ids ?? [], period_start: since, period_end: now, month_label: currentMonth(now, timeZone).label };
}
