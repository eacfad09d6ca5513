import type { PriceSourceKind } from "../../../lib/vocabulary/assets.ts";

/** An asset's USD price as a source reported it: `timestamp` is when the price was observed. */
export interface PriceQuote {
  value_usd: string;
  timestamp: Date;
  source: PriceSourceKind;
}

/** Where USD prices come from (PRICE_SOURCE); null: the source has no price for the symbol. */
export interface PriceSource {
  price(symbol: string): Promise<PriceQuote | null>;
}
