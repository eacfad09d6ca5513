import type { InsightSeverity, InsightType } from "../../../lib/vocabulary/insights.ts";
import { Prisma } from "../db.ts";

/**
 * What a rule found. `fingerprint` names the finding (type, subject, period) so that computing
 * again refreshes the same insight rather than repeating it; `data` holds the figures it was
 * computed from (money as decimal strings, instants as epoch milliseconds under `*_at` and
 * `period_*` names, which the REST adapter formats like every other timestamp).
 */
export interface Finding {
  type: InsightType;
  fingerprint: string;
  severity: InsightSeverity;
  title: string;
  description: string;
  data: Record<string, unknown>;
}

export const Decimal = Prisma.Decimal;
export type Decimal = Prisma.Decimal;

const FIAT = new Set(["USD", "EUR", "GBP"]);

/** `1234.5` USD as "1,234.50 USD": fiat to the cent, crypto as exact as it is. */
export function money(value: Decimal | string, unit: string): string {
  const amount = new Decimal(value);
  if (!FIAT.has(unit)) return `${amount.toFixed()} ${unit}`;
  const [whole, cents] = amount.toFixed(2, Decimal.ROUND_HALF_UP).split(".");
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${cents} ${unit}`;
}

/** A calendar date as people read it ("Nov 3, 2026"), in the user's zone. */
export function day(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone, month: "short", day: "numeric", year: "numeric" }).format(instant);
}

/** A category as a word in a sentence ("groceries"), or with a capital to start one. */
export function categoryWord(category: string, capital = false): string {
  return capital ? category.charAt(0).toUpperCase() + category.slice(1) : category;
}
