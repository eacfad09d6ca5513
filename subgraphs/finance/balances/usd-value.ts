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
