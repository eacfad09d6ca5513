import { formatUnits } from "viem";
import type { PriceFeed } from "../../../lib/price-config.ts";
import { ChainClients } from "../chain-clients.ts";
import type { PriceQuote, PriceSource } from "./price-source.ts";

/** The two reads of a Chainlink AggregatorV3Interface we need. */
export const AGGREGATOR_ABI = [
  { type: "function", name: "decimals", stateMutability: "view", inputs: [], outputs: [{ name: "", type: "uint8" }] },
  {
    type: "function",
    name: "latestRoundData",
    stateMutability: "view",
    inputs: [],
    outputs: [
      { name: "roundId", type: "uint80" },
      { name: "answer", type: "int256" },
      { name: "startedAt", type: "uint256" },
      { name: "answeredAt", type: "uint256" },
      { name: "answeredInRound", type: "uint80" },
    ],
  },
] as const;

/** An aggregator's answer as a USD decimal string; null when it is no price (zero or negative, or never updated). */
export function priceFromRound(answer: bigint, decimals: number, updatedAt: bigint): { value_usd: string; timestamp: Date } | null {
  if (answer <= 0n || updatedAt === 0n) return null;
  return { value_usd: formatUnits(answer, decimals), timestamp: new Date(Number(updatedAt) * 1000) };
}

/**
 * Chainlink-style aggregators (PRICE_FEEDS) read through CHAIN_RPC_URLS; a symbol without a feed is
 * asked of `fallback` (the static prices). A failed read throws: the cache keeps the last price.
 */
export class ChainlinkPriceSource implements PriceSource {
  private readonly clients: ChainClients;

  constructor(
    private readonly feeds: Readonly<Record<string, PriceFeed>>,
    chainRpcUrls: Readonly<Record<number, string>>,
    private readonly fallback?: PriceSource,
  ) {
    this.clients = new ChainClients(chainRpcUrls);
  }

  async price(symbol: string): Promise<PriceQuote | null> {
    const feed = this.feeds[symbol.toUpperCase()];
    if (!feed) return this.fallback ? this.fallback.price(symbol) : null;
    const client = this.clients.get(feed.chain_id);
    const [decimals, round] = await Promise.all([
      client.readContract({ address: feed.address, abi: AGGREGATOR_ABI, functionName: "decimals" }),
      client.readContract({ address: feed.address, abi: AGGREGATOR_ABI, functionName: "latestRoundData" }),
    ]);
    const price = priceFromRound(round[1], decimals, round[3]);
    return price && { ...price, source: "chainlink" };
  }
}
