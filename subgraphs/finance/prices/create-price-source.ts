import type { PriceConfig } from "../../../lib/price-config.ts";
import { ChainlinkPriceSource } from "./chainlink-price-source.ts";
import type { PriceSource } from "./price-source.ts";
import { StaticPriceSource } from "./static-price-source.ts";

/** The PriceSource PRICE_SOURCE names; chainlink falls back to the static prices for symbols without a feed. */
export function createPriceSource(config: PriceConfig, chainRpcUrls: Readonly<Record<number, string>>): PriceSource {
  const configured = new StaticPriceSource(config.staticPrices);
  return config.source === "chainlink" ? new ChainlinkPriceSource(config.feeds, chainRpcUrls, configured) : configured;
}
