// Exact decimal arithmetic on strings through bigint: a USD value is never a float.

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

interface Scaled {
  /** the number × 10^scale */
  units: bigint;
  scale: number;
}

function scaled(value: string): Scaled {
  const match = DECIMAL.exec(value);
  if (!match) throw new RangeError(`not a decimal string: ${JSON.stringify(value)}`);
  const fraction = match[3] ?? "";
  const units = BigInt(match[2]! + fraction);
  return { units: match[1] ? -units : units, scale: fraction.length };
}

function format({ units, scale }: Scaled): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const integer = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, "");
  return `${negative ? "-" : ""}${integer}${fraction ? `.${fraction}` : ""}`;
}

/**
 * What `balance` base units of an asset with `decimals` are worth at `priceUsd` per whole unit:
 * balance × price ÷ 10^decimals, exact (every digit kept, trailing zeros trimmed, like the ledger's
 * amounts): 25500000 USDC base units at "1.00" is "25.5".
 */
export function valueUsd(balance: string, decimals: number, priceUsd: string): string {
  const base = scaled(balance);
  if (base.scale !== 0) throw new RangeError(`base units are whole: ${JSON.stringify(balance)}`);
  const price = scaled(priceUsd);
  return format({ units: base.units * price.units, scale: decimals + price.scale });
}

/** The exact sum of decimal strings ("0" for none). */
export function sumDecimals(values: readonly string[]): string {
  const parts = values.map(scaled);
  const scale = Math.max(0, ...parts.map((part) => part.scale));
  const units = parts.reduce((sum, part) => sum + part.units * 10n ** BigInt(scale - part.scale), 0n);
  return format({ units, scale });
}

/** a − b, exact. */
export function subtractDecimals(a: string, b: string): string {
  return sumDecimals([a, b.startsWith("-") ? b.slice(1) : `-${b}`]);
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const difference = scaled(subtractDecimals(a, b)).units;
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
}

/**
 * What rounds `amount` up to the next multiple of the whole number `step` (0 when it is one
 * already), times `multiplier`: the round-up of 12.30 to 1 is 0.7.
 */
export function roundUpDifference(amount: string, step: number, multiplier = 1): string {
  const value = scaled(amount);
  const stepUnits = BigInt(step) * 10n ** BigInt(value.scale);
  const remainder = ((value.units % stepUnits) + stepUnits) % stepUnits;
  const difference = remainder === 0n ? 0n : stepUnits - remainder;
  return format({ units: difference * BigInt(multiplier), scale: value.scale });
}

/** Which side of `threshold` a value is on (at the threshold counts as above): what alerts and threshold rules compare. */
export function sideOf(value: string, threshold: string): "above" | "below" {
  return compareDecimals(value, threshold) < 0 ? "below" : "above";
}
