import { categoryWord, day, Decimal, money, type Finding } from "./finding.ts";
import { yearlyCost, type RecurringSeries } from "./recurring-charges.ts";

/** Categories where two recurring charges likely pay for the same thing (two streaming services, two gyms). */
export const OVERLAP_CATEGORIES = ["entertainment", "utilities", "health", "shopping"] as const;
/** The window and threshold of the fees finding. */
export const FEE_WINDOW_DAYS = 90;
export const FEE_MIN_USD = "5";

/**
 * `saving_opportunity` of overlapping subscriptions: two or more recurring charges (weekly to
 * monthly) in one of OVERLAP_CATEGORIES and one unit. One finding per such set of merchants.
 */
export function overlappingSubscriptions(series: RecurringSeries[]): Finding[] {
  const groups = new Map<string, RecurringSeries[]>();
  for (const one of series) {
    if (one.cadence.per_year < 12 || !(OVERLAP_CATEGORIES as readonly string[]).includes(one.category ?? "")) continue;
    const key = `${one.category}:${one.unit}`;
    groups.set(key, [...(groups.get(key) ?? []), one]);
  }
  const findings: Finding[] = [];
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const sorted = [...group].sort((a, b) => a.merchant_key.localeCompare(b.merchant_key));
    const { category, unit } = sorted[0]!;
    const monthly = sorted.reduce((sum, one) => sum.plus(yearlyCost(one)), new Decimal(0)).div(12);
    const names = sorted.map((one) => one.merchant_name);
    const cheapest = [...sorted].sort((a, b) => yearlyCost(a).comparedTo(yearlyCost(b)))[0]!;
    findings.push({
      type: "saving_opportunity",
      fingerprint: `saving_opportunity:overlap:${category}:${unit}:${sorted.map((one) => one.merchant_key.slice(0, 60)).join("|")}`,
      severity: "info",
      title: `${sorted.length} recurring ${categoryWord(category!)} charges`,
      description:
        `You pay ${sorted.length} recurring ${categoryWord(category!)} charges (${names.join(", ")}), about ${money(monthly, unit)} a month together. ` +
        `If they overlap, cancelling even the cheapest (${cheapest.merchant_name}) saves about ${money(yearlyCost(cheapest), unit)} a year.`,
      data: {
        reason: "overlapping_subscriptions",
        category,
        currency: unit,
        monthly_cost: monthly.toDecimalPlaces(18).toFixed(),
        merchants: sorted.map((one) => ({ merchant: one.merchant_name, cadence: one.cadence.name, typical_amount: one.typical_amount.toFixed(), yearly_cost: yearlyCost(one).toFixed() })),
      },
    });
  }
  return findings;
}

export interface FeesPaid {
  /** USD total of completed, pending and processing `fee` movements in the window */
  total: string;
  count: number;
  transaction_ids: string[];
  period_start: Date;
  period_end: Date;
  /** YYYY-MM of the current month: the finding is made at most once a month */
  month_label: string;
}

/** `saving_opportunity` of fees: at least FEE_MIN_USD of fees over the last FEE_WINDOW_DAYS days. */
export function feesFinding(fees: FeesPaid, timeZone: string): Finding[] {
  if (new Decimal(fees.total).lt(FEE_MIN_USD)) return [];
  return [
    {
      type: "saving_opportunity",
      fingerprint: `saving_opportunity:fees:${fees.month_label}`,
      severity: "info",
      title: `You paid ${money(fees.total, "USD")} in fees`,
      description:
        `You paid ${money(fees.total, "USD")} in ${fees.count} fee${fees.count === 1 ? "" : "s"} since ${day(fees.period_start, timeZone)} (the last ${FEE_WINDOW_DAYS} days). ` +
        "Many of them can be avoided: look at what each was charged for.",
      data: {
        reason: "fees",
        currency: "USD",
        total: fees.total,
        count: fees.count,
        period_start: fees.period_start.getTime(),
        period_end: fees.period_end.getTime(),
        transaction_ids: fees.transaction_ids,
      },
    },
  ];
}
