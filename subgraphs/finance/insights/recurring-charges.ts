import { day, Decimal, money, type Finding } from "./finding.ts";

/** The cadences a recurring charge may keep, with the gaps (days) that count as keeping it. */
export const CADENCES = [
  { name: "weekly", days: 7, min: 5, max: 9, per_year: 52 },
  { name: "biweekly", days: 14, min: 12, max: 16, per_year: 26 },
  { name: "monthly", days: 30.44, min: 26, max: 35, per_year: 12 },
  { name: "quarterly", days: 91.31, min: 84, max: 98, per_year: 4 },
] as const;
export type Cadence = (typeof CADENCES)[number];

/** Charges in a row needed to call a merchant's charges recurring. */
export const MIN_OCCURRENCES = 3;
/** How far a charge may differ from the latest one and still be "the same" charge (a price change). */
export const AMOUNT_TOLERANCE = "0.2";
/** A series stands while its last charge is no older than this many cadence maxima. */
export const STALE_AFTER = 1.5;

const DAY_MS = 86_400_000;

export interface Charge {
  id: string;
  amount: string;
  timestamp: Date;
}

/** One merchant's recent outgoing charges in one unit, newest first. */
export interface MerchantCharges {
  merchant_key: string;
  merchant_name: string;
  category: string | null;
  /** the asset symbol or fiat currency of the amounts */
  unit: string;
  charges: Charge[];
}

export interface RecurringSeries {
  merchant_key: string;
  merchant_name: string;
  category: string | null;
  unit: string;
  cadence: Cadence;
  /** the median charge of the series */
  typical_amount: Decimal;
  /** oldest first */
  charges: Charge[];
  next_expected_at: Date;
}

function cadenceOf(gapDays: number): Cadence | undefined {
  return CADENCES.find((cadence) => gapDays >= cadence.min && gapDays <= cadence.max);
}

function median(values: Decimal[]): Decimal {
  const sorted = [...values].sort((a, b) => a.comparedTo(b));
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : sorted[middle - 1]!.plus(sorted[middle]!).div(2);
}

/**
 * The run of charges, newest backwards, that keeps one cadence (each gap within its bounds) and
 * one price (within AMOUNT_TOLERANCE of the latest charge): recurring when it has at least
 * MIN_OCCURRENCES charges and the latest is recent enough that the series still stands.
 */
export function findRecurringSeries(merchant: MerchantCharges, now: Date): RecurringSeries | null {
  const [latest, previous] = merchant.charges;
  if (!latest || !previous) return null;
  const cadence = cadenceOf((latest.timestamp.getTime() - previous.timestamp.getTime()) / DAY_MS);
  if (!cadence) return null;
  if (now.getTime() - latest.timestamp.getTime() > cadence.max * STALE_AFTER * DAY_MS) return null;
  const reference = new Decimal(latest.amount);
  const similar = (charge: Charge) => new Decimal(charge.amount).minus(reference).abs().lte(reference.times(AMOUNT_TOLERANCE));
  const run = [latest];
  for (const charge of merchant.charges.slice(1)) {
    const gap = (run.at(-1)!.timestamp.getTime() - charge.timestamp.getTime()) / DAY_MS;
    if (gap < cadence.min || gap > cadence.max || !similar(charge)) break;
    run.push(charge);
  }
  if (run.length < MIN_OCCURRENCES) return null;
  const charges = run.reverse();
  const meanGap = (latest.timestamp.getTime() - charges[0]!.timestamp.getTime()) / (charges.length - 1);
  return {
    merchant_key: merchant.merchant_key,
    merchant_name: merchant.merchant_name,
    category: merchant.category,
    unit: merchant.unit,
    cadence,
    typical_amount: median(charges.map((charge) => new Decimal(charge.amount))),
    charges,
    next_expected_at: new Date(latest.timestamp.getTime() + Math.round(meanGap)),
  };
}

/** What a series costs in a year at its typical amount. */
export function yearlyCost(series: RecurringSeries): Decimal {
  return series.typical_amount.times(series.cadence.per_year);
}

/** `recurring_charge`: one finding per merchant, unit and cadence while the series stands. */
export function recurringChargeFinding(series: RecurringSeries, timeZone: string): Finding {
  const first = series.charges[0]!;
  const last = series.charges.at(-1)!;
  return {
    type: "recurring_charge",
    fingerprint: `recurring_charge:${series.merchant_key.slice(0, 120)}:${series.unit}:${series.cadence.name}`,
    severity: "info",
    title: `${series.merchant_name} charges you ${series.cadence.name}`,
    description:
      `${series.merchant_name} has charged you about ${money(series.typical_amount, series.unit)} ${series.cadence.name}, ` +
      `${series.charges.length} times since ${day(first.timestamp, timeZone)}; the next charge is expected around ${day(series.next_expected_at, timeZone)}. ` +
      `That is about ${money(yearlyCost(series), series.unit)} a year.`,
    data: {
      merchant: series.merchant_name,
      category: series.category,
      cadence: series.cadence.name,
      currency: series.unit,
      typical_amount: series.typical_amount.toFixed(),
      yearly_cost: yearlyCost(series).toFixed(),
      occurrences: series.charges.length,
      first_charge_at: first.timestamp.getTime(),
      last_charge_at: last.timestamp.getTime(),
      next_expected_at: series.next_expected_at.getTime(),
      transaction_ids: series.charges.map((charge) => charge.id),
    },
  };
}
