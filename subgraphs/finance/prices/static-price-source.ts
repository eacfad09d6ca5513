import type { PriceQuote, PriceSource } from "./price-source.ts";

/**
 * The configured prices (ASSET_PRICES), offline. A configured price is the deployment's price as of
 * the moment it is read, so its timestamp is the time of the read and it is never stale.
 */
export class StaticPriceSource implements PriceSource {
  constructor(
    private readonly prices: Readonly<Record<string, string>>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  price(symbol: string): Promise<PriceQuote | null> {
    const value = this.prices[symbol.toUpperCase()];
    return Promise.resolve(value === undefined ? null : { value_usd: value, timestamp: this.now(), source: "static" });
  }
}
