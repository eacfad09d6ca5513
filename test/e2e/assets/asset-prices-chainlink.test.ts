import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Address } from "viem";
import { ChainlinkPriceSource } from "../../../subgraphs/finance/prices/chainlink-price-source.ts";
import { StaticPriceSource } from "../../../subgraphs/finance/prices/static-price-source.ts";
import { compileSolidity, startDevnet, type Compiled, type Devnet } from "../../support/devnet.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 9: PRICE_SOURCE=chainlink reads Chainlink-style aggregators (latestRoundData, decimals)
// through CHAIN_RPC_URLS, here on the in-process chain.

const AGGREGATOR = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Aggregator {
  uint8 public decimals;
  int256 private answer;
  uint256 private updatedAt;
  constructor(uint8 decimals_, int256 answer_, uint256 updatedAt_) { decimals = decimals_; answer = answer_; updatedAt = updatedAt_; }
  function latestRoundData() external view returns (uint80, int256, uint256, uint256, uint80) { return (7, answer, updatedAt, updatedAt, 7); }
}`;

const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));

let devnet: Devnet;
let platform: TestPlatform;
let feeds: Record<"ETH" | "WBTC" | "DAI", Address>;

beforeAll(async () => {
  devnet = await startDevnet();
  const { Aggregator } = compileSolidity(AGGREGATOR, "aggregator.sol") as { Aggregator: Compiled };
  feeds = {
    // 3000.12345678 USD, just now
    ETH: await devnet.deploy(Aggregator, [8, 300012345678n, nowSeconds()]),
    // two days old: stale with the default hour
    WBTC: await devnet.deploy(Aggregator, [8, 6000000000000n, nowSeconds() - 172_800n]),
    // an answer of zero is no price
    DAI: await devnet.deploy(Aggregator, [18, 0n, nowSeconds()]),
  };
  platform = await startTestPlatform({
    CHAIN_RPC_URLS: JSON.stringify({ [devnet.chainId]: devnet.url }),
    PRICE_SOURCE: "chainlink",
    PRICE_FEEDS: JSON.stringify(Object.fromEntries(Object.entries(feeds).map(([symbol, address]) => [symbol, { chain_id: devnet.chainId, address }]))),
  });
});
afterAll(async () => {
  await platform?.stop();
  await devnet?.stop();
});

describe("ChainlinkPriceSource", () => {
  it("reads the aggregator's answer with its decimals and its updatedAt as the timestamp", async () => {
    const source = new ChainlinkPriceSource({ ETH: { chain_id: devnet.chainId, address: feeds.ETH } }, { [devnet.chainId]: devnet.url });
    const quote = await source.price("eth");
    expect(quote).toMatchObject({ value_usd: "3000.12345678", source: "chainlink" });
    expect(Math.abs(quote!.timestamp.getTime() - Date.now())).toBeLessThan(120_000);
  });

  it("asks the fallback for symbols without a feed, and fails loudly when the node is unreachable", async () => {
    const source = new ChainlinkPriceSource({ ETH: { chain_id: 1, address: feeds.ETH } }, { 1: "http://127.0.0.1:9" }, new StaticPriceSource({ USDC: "1.00" }));
    expect(await source.price("USDC")).toMatchObject({ value_usd: "1.00", source: "static" });
    await expect(source.price("ETH")).rejects.toThrow();
  });
});

describe("GET /v0/assets with PRICE_SOURCE=chainlink", () => {
  async function asset(id: string) {
    const { jwt } = await platform.createUser();
    const response = await platform.api(`/v0/assets/${id}`, { jwt });
    expect(response.status).toBe(200);
    return response.json();
  }

  it("answers the on-chain price, a stale one marked, zero answers as no price, and static prices for the rest", async () => {
    expect((await asset("ast_eth")).price).toMatchObject({ value_usd: "3000.12345678", source: "chainlink", stale: false });
    const wbtc = (await asset("ast_wbtc")).price;
    expect(wbtc).toMatchObject({ value_usd: "60000", source: "chainlink", stale: true });
    expect(Date.now() - wbtc.timestamp).toBeGreaterThan(172_000_000);
    expect((await asset("ast_dai")).price).toBeNull();
    expect((await asset("ast_usdc")).price).toMatchObject({ value_usd: "1.00", source: "static", stale: false });
  });
});
