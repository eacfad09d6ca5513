import type { SpendingCategory } from "../../../lib/vocabulary/transactions.ts";
import { categoryWord, day, Decimal, money, type Finding } from "./finding.ts";

/** Full months before the current one that make the trailing average. */
export const TRAILING_MONTHS = 3;
/** This month's spending must reach this multiple of the trailing average … */
export const SPIKE_RATIO = "1.5";
/** … and exceed it by at least this much (USD), so small categories do not cry wolf. */
export const SPIKE_MIN_EXCESS_USD = "50";
/** Months of the trailing window with spending in the category: fewer is not enough history. */
export const MIN_HISTORY_MONTHS = 2;

export interface CategorySpend {
  category: SpendingCategory;
  /** USD spent in the current month so far */
  current: string;
  /** USD spent in each of the TRAILING_MONTHS full months before, oldest first */
  previous: string[];
}

export interface SpikeInput {
  /** the current month in the user's zone, and its label (YYYY-MM) */
  month: { start: Date; end: Date; label: string };
  time_zone: string;
  spends: CategorySpend[];
}

/**
 * `spending_spike`: a category whose spending this month (so far) is at least SPIKE_RATIO times
 * its average over the previous TRAILING_MONTHS months and SPIKE_MIN_EXCESS_USD above it, given
 * spending in at least MIN_HISTORY_MONTHS of them. One finding per category and month.
 */
export function spendingSpikes(input: SpikeInput): Finding[] {
  const findings: Finding[] = [];
  for (const spend of input.spends) {
    const previous = spend.previous.map((value) => new Decimal(value));
    if (previous.filter((value) => value.gt(0)).length < MIN_HISTORY_MONTHS) continue;
    const average = previous.reduce((sum, value) => sum.plus(value), new Decimal(0)).div(TRAILING_MONTHS);
    const current = new Decimal(spend.current);
    if (current.lt(average.times(SPIKE_RATIO)) || current.minus(average).lt(SPIKE_MIN_EXCESS_USD)) continue;
    const increase = current.minus(average).div(average).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
    findings.push({
      type: "spending_spike",
      fingerprint: `spending_spike:${spend.category}:${input.month.label}`,
      severity: "warning",
      title: `${categoryWord(spend.category, true)} spending is up ${increase.toFixed()}% this month`,
      description:
        `You have spent ${money(current, "USD")} on ${categoryWord(spend.category)} since ${day(input.month.start, input.time_zone)}, ` +
        `${increase.toFixed()}% more than your monthly average of ${money(average, "USD")} over the previous ${TRAILING_MONTHS} months.`,
      data: {
        category: spend.category,
        currency: "USD",
        period_start: input.month.start.getTime(),
        period_end: input.month.end.getTime(),
        spent: current.toFixed(),
        trailing_average: average.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(),
        trailing_months: spend.previous,
        increase_percent: increase.toNumber(),
      },
    });
  }
  return findings;
}
