import { calendarPeriod, startOfLocalDay, wallClock, type PeriodBounds } from "../budgets/budget-period.ts";
import type { FinanceTx } from "../db.ts";

/** A card's approved spending in the current day and month of its holder's time zone. */
export interface CardSpending {
  day: PeriodBounds & { spent: string };
  month: PeriodBounds & { spent: string };
}

/** The local day around `now` in `timeZone`, from midnight to the next. */
export function localDay(now: Date, timeZone: string): PeriodBounds {
  const local = wallClock(now.getTime(), timeZone);
  return { start: startOfLocalDay(local.year, local.month, local.day, timeZone), end: startOfLocalDay(local.year, local.month, local.day + 1, timeZone) };
}

/**
 * What the card's limits count, summed in SQL: its `card_purchase` movements that are not failed
 * (approved, captured or settled), dated in the day and the month around `now`. Refunds do not
 * give a limit back, as with most issuers.
 */
export async function cardSpending(tx: FinanceTx, cardId: string, now: Date, timeZone: string): Promise<CardSpending> {
  const day = localDay(now, timeZone);
  const month = calendarPeriod("monthly", now, timeZone);
  const from = day.start < month.start ? day.start : month.start;
  const to = day.end > month.end ? day.end : month.end;
  const [row] = await tx.$queryRaw<{ day: string; month: string }[]>`
    SELECT trim_scale(coalesce(sum("amount") FILTER (WHERE "timestamp" >= ${day.start} AND "timestamp" < ${day.end}), 0))::text AS day,
      trim_scale(coalesce(sum("amount") FILTER (WHERE "timestamp" >= ${month.start} AND "timestamp" < ${month.end}), 0))::text AS month
    FROM "finance"."transactions"
    WHERE "card_id" = ${cardId} AND "type" = 'card_purchase' AND "status" <> 'failed' AND "timestamp" >= ${from} AND "timestamp" < ${to}`;
  return { day: { ...day, spent: row!.day }, month: { ...month, spent: row!.month } };
}
