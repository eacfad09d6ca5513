import type { Logger } from "../../../lib/logger.ts";
import type { PriceQuote, PriceSource } from "./price-source.ts";

/** A price as the API shows it: the quote, and whether it is older than PRICE_MAX_AGE_SECONDS. */
export interface AssetPrice extends PriceQuote {
  stale: boolean;
}

export function isStale(timestamp: Date, now: Date, maxAgeMs: number): boolean {
  return now.getTime() - timestamp.getTime() > maxAgeMs;
}

interface Cached {
  quote: PriceQuote | null;
  fetchedAt: number;
}

/**
 * Prices with a cache in front of the source: a price read is kept for `cacheTtlMs` (with the
 * timestamp the source gave it), one read per symbol at a time. When the source fails the last
 * price is answered, marked stale once it is older than `maxAgeMs`; with none, the price is null:
 * a source outage never fails the catalogue.
 */
export class AssetPrices {
  private readonly cache = new Map<string, Cached>();
  private readonly reads = new Map<string, Promise<PriceQuote | null>>();

  constructor(
    private readonly source: PriceSource,
    private readonly options: { cacheTtlMs: number; maxAgeMs: number },
    private readonly logger?: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async price(symbol: string): Promise<AssetPrice | null> {
    const key = symbol.toUpperCase();
    const cached = this.cache.get(key);
    const quote = cached && this.now().getTime() - cached.fetchedAt < this.options.cacheTtlMs ? cached.quote : await this.read(key, cached);
    return quote && { ...quote, stale: isStale(quote.timestamp, this.now(), this.options.maxAgeMs) };
  }

  private read(key: string, cached: Cached | undefined): Promise<PriceQuote | null> {
    const running = this.reads.get(key);
    if (running) return running;
    const read = this.source
      .price(key)
      .then((quote) => {
        this.cache.set(key, { quote, fetchedAt: this.now().getTime() });
        return quote;
      })
      .catch((error: unknown) => {
        this.logger?.warn({ err: error, symbol: key }, "price source failed; answering the last known price");
        return cached?.quote ?? null;
      })
      .finally(() => this.reads.delete(key));
    this.reads.set(key, read);
    return read;
  }
}
