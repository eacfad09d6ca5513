import { validationError, type AppError } from "../../../lib/errors/app-error.ts";

/**
 * The money columns of prisma/finance/schema.prisma: NUMERIC(78, 18) for ledger amounts, USD
 * values and their stored sums, limits and budgets; NUMERIC(38, 2) for fiat at the bank (a ramp
 * quote's fiat_amount and fee, a bank account's balance).
 */
const MONEY_COLUMNS = { ledger: { precision: 78, scale: 18 }, fiat: { precision: 38, scale: 2 } } as const;

/** Digits kept free above a bounded value in the narrower column, for the sums stored of such values (a bank's balance; transaction_rollups.usd has far more). */
const SUM_HEADROOM_DIGITS = 6;

/**
 * The most digits before the decimal point of a money amount the API takes (30), and of what is
 * computed from one (amount × price, a ramp's other side): the narrower money column's integer
 * digits less the headroom, so no amount, no value and no stored sum of them overflows a column
 * (which the database would answer with an error, and the API with a 500).
 */
export const MAX_AMOUNT_INTEGER_DIGITS =
  Math.min(...Object.values(MONEY_COLUMNS).map((column) => column.precision - column.scale)) - SUM_HEADROOM_DIGITS;

/**
 * A positive decimal string in asset units with at most `decimals` fraction digits (an amount the
 * asset can hold: 6 for USDC, 18 for ETH, 2 for EUR) and at most MAX_AMOUNT_INTEGER_DIGITS before
 * the point, normalised without leading or trailing zeros; never read as a float. Anything else is
 * a GEN-422-001 item at `loc`.
 */
export function parseAmount(value: unknown, decimals: number, loc: (string | number)[]): string {
  const match = typeof value === "string" ? /^(\d+)(?:\.(\d+))?$/.exec(value) : null;
  if (!match) throw validationError(loc, "Input should be a positive decimal string such as \"12.50\"", value, "decimal_parsing");
  const integer = match[1]!.replace(/^0+(?=\d)/, "");
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (integer.length > MAX_AMOUNT_INTEGER_DIGITS)
    throw validationError(loc, `Input should have at most ${MAX_AMOUNT_INTEGER_DIGITS} digits before the decimal point`, value, "decimal_whole_digits", { whole_digits: MAX_AMOUNT_INTEGER_DIGITS });
  if (fraction.length > decimals) throw validationError(loc, `Input should have no more than ${decimals} decimal places`, value, "decimal_max_places", { decimal_places: decimals });
  if (/^0*$/.test(integer + fraction)) throw validationError(loc, "Input should be greater than 0", value, "greater_than", { gt: 0 });
  return fraction ? `${integer}.${fraction}` : integer;
}

/** Whether a decimal string computed from an amount (a USD value, a ramp's other side) has at most MAX_AMOUNT_INTEGER_DIGITS before the point. */
export function withinAmountBound(value: string): boolean {
  const integer = value.replace(/^-/, "").split(".")[0]!.replace(/^0+/, "");
  return integer.length <= MAX_AMOUNT_INTEGER_DIGITS;
}

/** The GEN-422-001 item at `loc`, naming `input`, for an amount whose `what` (e.g. "USD value (amount × price)") is beyond MAX_AMOUNT_INTEGER_DIGITS. */
export function amountBeyondBound(what: string, loc: (string | number)[], input: unknown): AppError {
  return validationError(loc, `Value error, the amount's ${what} would have more than ${MAX_AMOUNT_INTEGER_DIGITS} digits before the decimal point`, input, "value_error", {
    whole_digits: MAX_AMOUNT_INTEGER_DIGITS,
  });
}
