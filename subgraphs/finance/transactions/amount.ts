import { validationError } from "../../../lib/errors/app-error.ts";

/** 60 integer digits: NUMERIC(78, 18) less its 18 decimals. */
const MAX_INTEGER_DIGITS = 60;

/**
 * A positive decimal string in asset units with at most `decimals` fraction digits (an amount the
 * asset can hold: 6 for USDC, 18 for ETH, 2 for EUR), normalised without leading or trailing
 * zeros; never read as a float. Anything else is a GEN-422-001 item at `loc`.
 */
export function parseAmount(value: unknown, decimals: number, loc: (string | number)[]): string {
  const match = typeof value === "string" ? /^(\d+)(?:\.(\d+))?$/.exec(value) : null;
  if (!match) throw validationError(loc, "Input should be a positive decimal string such as \"12.50\"", value, "decimal_parsing");
  const integer = match[1]!.replace(/^0+(?=\d)/, "");
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (integer.length > MAX_INTEGER_DIGITS) throw validationError(loc, `Input should have at most ${MAX_INTEGER_DIGITS} digits before the decimal point`, value, "decimal_whole_digits", { whole_digits: MAX_INTEGER_DIGITS });
  if (fraction.length > decimals) throw validationError(loc, `Input should have no more than ${decimals} decimal places`, value, "decimal_max_places", { decimal_places: decimals });
  if (/^0*$/.test(integer + fraction)) throw validationError(loc, "Input should be greater than 0", value, "greater_than", { gt: 0 });
  return fraction ? `${integer}.${fraction}` : integer;
}
