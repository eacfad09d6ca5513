import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import { ConfigError } from "../../lib/config-error.ts";
import { loadConfig } from "../../lib/config.ts";
import { DEFAULT_ASSET_PRICES, loadPriceConfig, parseAssetPrices, parsePriceFeeds } from "../../lib/price-config.ts";
import { assetWhere } from "../../subgraphs/finance/assets/list-assets.ts";
import { AssetPrices, isStale } from "../../subgraphs/finance/prices/asset-prices.ts";
import { priceFromRound } from "../../subgraphs/finance/prices/chainlink-price-source.ts";
import type { PriceQuote, PriceSource } from "../../subgraphs/finance/prices/price-source.ts";
import { StaticPriceSource } from "../../subgraphs/finance/prices/static-price-source.ts";

const FEED = "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419";

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("price configuration", () => {
  it("defaults to the static source with a price for every seeded symbol, an hour's max age and a minute's cache", () => {
    const config = loadPriceConfig({}, {});
    expect(config).toMatchObject({ source: "static", feeds: {}, maxAgeMs: 3_600_000, cacheTtlMs: 60_000 });
    expect(Object.keys(config.staticPrices).sort()).toEqual(["DAI", "ETH", "EUR", "EURC", "GBP", "USD", "USDC", "USDT", "WBTC", "WETH"]);
  });

  it("ASSET_PRICES overrides the defaults by symbol, in any case", () => {
    expect(parseAssetPrices({ eth: "3150.25", XAU: "2400" })).toEqual({ ...DEFAULT_ASSET_PRICES, ETH: "3150.25", XAU: "2400" });
    expect(loadPriceConfig({ ASSET_PRICES: '{"ETH": "1.5"}' }, {}).staticPrices.ETH).toBe("1.5");
  });

  it("refuses numbers, negative or malformed prices and non-objects, naming the variable", () => {
    expect(configError(() => parseAssetPrices({ ETH: 3000.1 })).message).toContain("ASSET_PRICES.ETH");
    expect(configError(() => parseAssetPrices({ ETH: "-1" })).message).toContain("ASSET_PRICES.ETH");
    expect(configError(() => parseAssetPrices({ ETH: "1e3" })).message).toContain("ASSET_PRICES.ETH");
    expect(configError(() => parseAssetPrices(["ETH"])).message).toContain("ASSET_PRICES");
    expect(configError(() => loadPriceConfig({ ASSET_PRICES: "{" }, {})).message).toContain("ASSET_PRICES");
  });

  it("is part of the configuration, its feeds checked against CHAIN_RPC_URLS", () => {
    expect(loadConfig({}).prices.source).toBe("static");
    expect(configError(() => loadConfig({ PRICE_FEEDS: JSON.stringify({ ETH: { chain_id: 900, address: FEED } }) })).message).toContain("PRICE_FEEDS.ETH.chain_id");
    const config = loadConfig({ CHAIN_RPC_URLS: '{"900": "http://127.0.0.1:8545"}', PRICE_SOURCE: "chainlink", PRICE_FEEDS: JSON.stringify({ ETH: { chain_id: 900, address: FEED } }) });
    expect(config.prices).toMatchObject({ source: "chainlink", feeds: { ETH: { chain_id: 900, address: FEED } } });
  });

  it("checks PRICE_SOURCE, PRICE_FEEDS and the ages", () => {
    expect(configError(() => loadPriceConfig({ PRICE_SOURCE: "oracle" }, {})).message).toContain("PRICE_SOURCE");
    expect(configError(() => loadPriceConfig({ PRICE_SOURCE: "chainlink" }, {})).message).toContain("PRICE_FEEDS");
    expect(configError(() => parsePriceFeeds({ ETH: { chain_id: 1, address: FEED } }, {})).message).toContain("PRICE_FEEDS.ETH.chain_id");
    expect(configError(() => parsePriceFeeds({ ETH: { chain_id: 1, address: "0x12" } }, { 1: "http://rpc" })).message).toContain("PRICE_FEEDS.ETH.address");
    expect(configError(() => loadPriceConfig({ PRICE_MAX_AGE_SECONDS: "0" }, {})).message).toContain("PRICE_MAX_AGE_SECONDS");
    expect(configError(() => loadPriceConfig({ PRICE_CACHE_SECONDS: "1.5" }, {})).message).toContain("PRICE_CACHE_SECONDS");
    const config = loadPriceConfig({ PRICE_SOURCE: "chainlink", PRICE_FEEDS: JSON.stringify({ eth: { chain_id: 1, address: FEED } }) }, { 1: "http://rpc" });
    expect(config.feeds).toEqual({ ETH: { chain_id: 1, address: FEED } });
  });
});

describe("prices", () => {
  it("an aggregator round becomes an exact decimal string; zero, negative or never-updated answers are no price", () => {
    expect(priceFromRound(300012345678n, 8, 1_700_000_000n)).toEqual({ value_usd: "3000.12345678", timestamp: new Date(1_700_000_000_000) });
    expect(priceFromRound(100000000000000000000000001n, 18, 1n)?.value_usd).toBe("100000000.000000000000000001");
    expect(priceFromRound(0n, 8, 1n)).toBeNull();
    expect(priceFromRound(-5n, 8, 1n)).toBeNull();
    expect(priceFromRound(5n, 8, 0n)).toBeNull();
  });

  it("a price is stale once older than the max age", () => {
    const now = new Date(10_000);
    expect(isStale(new Date(5_000), now, 5_000)).toBe(false);
    expect(isStale(new Date(4_999), now, 5_000)).toBe(true);
  });

  it("the static source answers configured prices by symbol in any case, as of the read", async () => {
    const at = new Date(1_000);
    const source = new StaticPriceSource({ ETH: "3000.00" }, () => at);
    expect(await source.price("eth")).toEqual({ value_usd: "3000.00", timestamp: at, source: "static" });
    expect(await source.price("DOGE")).toBeNull();
  });
});

describe("AssetPrices (the cache)", () => {
  function counting(answers: (PriceQuote | null | Error)[]) {
    const source: PriceSource & { calls: number } = {
      calls: 0,
      price() {
        const answer = answers[Math.min(this.calls++, answers.length - 1)]!;
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
      },
    };
    return source;
  }

  it("keeps a price for the cache time, then asks again; one read at a time", async () => {
    let now = 100_000;
    const quote = (value: string): PriceQuote => ({ value_usd: value, timestamp: new Date(now), source: "chainlink" });
    const source = counting([quote("1"), quote("2")]);
    const prices = new AssetPrices(source, { cacheTtlMs: 1_000, maxAgeMs: 60_000 }, undefined, () => new Date(now));
    const [a, b] = await Promise.all([prices.price("ETH"), prices.price("eth")]);
    expect(a).toEqual({ value_usd: "1", timestamp: new Date(100_000), source: "chainlink", stale: false });
    expect(b).toEqual(a);
    now += 999;
    expect((await prices.price("ETH"))?.value_usd).toBe("1");
    expect(source.calls).toBe(1);
    now += 1;
    expect((await prices.price("ETH"))?.value_usd).toBe("2");
    expect(source.calls).toBe(2);
  });

  it("answers the last price when the source fails, stale once too old; null when it never had one", async () => {
    let now = 0;
    const source = counting([{ value_usd: "3000", timestamp: new Date(0), source: "chainlink" }, new Error("rpc down")]);
    const prices = new AssetPrices(source, { cacheTtlMs: 10, maxAgeMs: 1_000 }, undefined, () => new Date(now));
    expect((await prices.price("ETH"))?.stale).toBe(false);
    now = 1_001;
    expect(await prices.price("ETH")).toEqual({ value_usd: "3000", timestamp: new Date(0), source: "chainlink", stale: true });
    const failing = new AssetPrices(counting([new Error("rpc down")]), { cacheTtlMs: 10, maxAgeMs: 1_000 });
    expect(await failing.price("ETH")).toBeNull();
  });
});

describe("catalogue filters", () => {
  function validation(run: () => unknown) {
    try {
      run();
    } catch (error) {
      if (error instanceof AppError) return { code: error.code, loc: error.validation?.[0]?.loc };
      throw error;
    }
    throw new Error("expected a refusal");
  }

  it("combine with AND; chain_id keeps the assets on that chain; symbol matches in any case", () => {
    expect(assetWhere({})).toEqual({});
    expect(assetWhere({ asset_type: "crypto", chain_id: 8453, symbol: "usdc" })).toEqual({
      asset_type: "crypto",
      contracts: { some: { chain_id: 8453 } },
      symbol: { equals: "usdc", mode: "insensitive" },
    });
  });

  it("refuses chain_id with asset_type fiat as a validation item (GraphQL's AssetType refuses an unknown asset_type)", () => {
    expect(validation(() => assetWhere({ asset_type: "fiat", chain_id: 1 }))).toEqual({ code: "GEN-422-001", loc: ["chain_id"] });
  });
});
