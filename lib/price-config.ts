// Asset price configuration (subgraphs/finance/prices/):
//
//   PRICE_SOURCE           static | chainlink. Default static: the configured prices, offline.
//   ASSET_PRICES           JSON object of symbol to USD price as a decimal string, over the defaults
//                          below: {"ETH": "3150.25"}. Numbers are refused (a float loses cents).
//   PRICE_FEEDS            chainlink: JSON object of symbol to a Chainlink-style aggregator (USD quote)
//                          {"ETH": {"chain_id": 1, "address": "0x5f4e…"}}; its chain needs CHAIN_RPC_URLS.
//                          Symbols without a feed keep their static price.
//   PRICE_MAX_AGE_SECONDS  a price older than this is answered with stale: true. Default 3600.
//   PRICE_CACHE_SECONDS    how long a read price is kept before the source is asked again. Default 60.
import { isAddress } from "viem";
import { ConfigError } from "./config-error.ts";
import { envText, isRecord, type Env } from "./parse.ts";
import { PRICE_SOURCES, type PriceSourceKind } from "./vocabulary/assets.ts";

export interface PriceFeed {
  chain_id: number;
  address: `0x${string}`;
}

export interface PriceConfig {
  source: PriceSourceKind;
  /** symbol (upper case) → USD decimal string */
  staticPrices: Record<string, string>;
  /** symbol (upper case) → aggregator; used when source is chainlink */
  feeds: Record<string, PriceFeed>;
  maxAgeMs: number;
  cacheTtlMs: number;
}

/** Indicative prices so an offline deployment shows values; set ASSET_PRICES for real ones. */
export const DEFAULT_ASSET_PRICES: Readonly<Record<string, string>> = Object.freeze({
  ETH: "3000.00",
  WETH: "3000.00",
  WBTC: "60000.00",
  USDC: "1.00",
  USDT: "1.00",
  DAI: "1.00",
  EURC: "1.08",
  USD: "1.00",
  EUR: "1.08",
  GBP: "1.27",
});

const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

function parseJson(env: Env, name: string): unknown {
  const raw = envText(env, name);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch (error) {
    throw new ConfigError(name, `expected JSON, ${(error as Error).message}`);
  }
}

function seconds(env: Env, name: string, fallback: number): number {
  const raw = envText(env, name);
  if (raw === undefined) return fallback * 1000;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1 || !Number.isSafeInteger(value * 1000)) throw new ConfigError(name, `expected a positive whole number of seconds, got "${raw}"`);
  return value * 1000;
}

/** ASSET_PRICES over the defaults; every value a non-negative decimal string. */
export function parseAssetPrices(value: unknown, name = "ASSET_PRICES"): Record<string, string> {
  const prices: Record<string, string> = { ...DEFAULT_ASSET_PRICES };
  if (value === undefined) return prices;
  if (!isRecord(value)) throw new ConfigError(name, 'expected a JSON object of symbol to USD price, like {"ETH": "3000.00"}');
  for (const [symbol, price] of Object.entries(value)) {
    if (typeof price !== "string" || !DECIMAL.test(price)) throw new ConfigError(`${name}.${symbol}`, `expected a decimal string like "3000.00", got ${JSON.stringify(price)}`);
    prices[symbol.toUpperCase()] = price;
  }
  return prices;
}

/** PRICE_FEEDS: every feed on a chain CHAIN_RPC_URLS reaches. */
export function parsePriceFeeds(value: unknown, chainRpcUrls: Readonly<Record<number, string>>, name = "PRICE_FEEDS"): Record<string, PriceFeed> {
  if (value === undefined) return {};
  if (!isRecord(value)) throw new ConfigError(name, 'expected a JSON object of symbol to {"chain_id": 1, "address": "0x…"}');
  const feeds: Record<string, PriceFeed> = {};
  for (const [symbol, feed] of Object.entries(value)) {
    const at = `${name}.${symbol}`;
    if (!isRecord(feed)) throw new ConfigError(at, 'expected {"chain_id": 1, "address": "0x…"}');
    if (typeof feed.chain_id !== "number" || !Number.isInteger(feed.chain_id) || feed.chain_id < 1) throw new ConfigError(`${at}.chain_id`, "expected a chain id");
    if (chainRpcUrls[feed.chain_id] === undefined) throw new ConfigError(`${at}.chain_id`, `chain ${feed.chain_id} has no RPC URL in CHAIN_RPC_URLS`);
    if (typeof feed.address !== "string" || !isAddress(feed.address, { strict: false })) throw new ConfigError(`${at}.address`, "expected a 20-byte hex address");
    feeds[symbol.toUpperCase()] = { chain_id: feed.chain_id, address: feed.address as `0x${string}` };
  }
  return feeds;
}

export function loadPriceConfig(env: Env, chainRpcUrls: Readonly<Record<number, string>>): PriceConfig {
  const source = envText(env, "PRICE_SOURCE") ?? "static";
  if (!(PRICE_SOURCES as readonly string[]).includes(source)) throw new ConfigError("PRICE_SOURCE", `expected one of ${PRICE_SOURCES.join(", ")}`);
  const feeds = parsePriceFeeds(parseJson(env, "PRICE_FEEDS"), chainRpcUrls);
  if (source === "chainlink" && Object.keys(feeds).length === 0) throw new ConfigError("PRICE_FEEDS", "is required when PRICE_SOURCE=chainlink");
  return {
    source: source as PriceSourceKind,
    staticPrices: parseAssetPrices(parseJson(env, "ASSET_PRICES")),
    feeds,
    maxAgeMs: seconds(env, "PRICE_MAX_AGE_SECONDS", 3600),
    cacheTtlMs: seconds(env, "PRICE_CACHE_SECONDS", 60),
  };
}
