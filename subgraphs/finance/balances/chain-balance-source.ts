import { decodeFunctionResult, encodeFunctionData, erc20Abi, getAddress, multicall3Abi, type Address, type Hex } from "viem";
import { appError } from "../../../lib/errors/app-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import { ChainClients } from "../chain-clients.ts";
import type { FinanceDb } from "../db.ts";
import type { BalanceSource, BalanceWallet, HeldBalance } from "./balance-source.ts";

/** Multicall3's address, the same on every chain it is deployed to (mainnets, L2s and testnets alike). */
export const MULTICALL3_ADDRESS: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";

/** What the catalogue holds on one chain: a token contract, or null for the native coin. */
export interface ChainAsset {
  symbol: string;
  address: string | null;
}

/** The `aggregate3` calls reading `owner`'s balance of each asset: `getEthBalance` on Multicall3 itself for the native coin, `balanceOf` for tokens. */
export function balanceCalls(owner: Address, assets: readonly ChainAsset[]): { target: Address; allowFailure: boolean; callData: Hex }[] {
  return assets.map((asset) => ({
    target: asset.address === null ? MULTICALL3_ADDRESS : getAddress(asset.address),
    allowFailure: true,
    callData:
      asset.address === null
        ? encodeFunctionData({ abi: multicall3Abi, functionName: "getEthBalance", args: [owner] })
        : encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [owner] }),
  }));
}

/** The balance one `aggregate3` result carries; null when the call reverted or answered nothing (no contract at the catalogue's address). */
export function decodeBalance(asset: ChainAsset, result: { success: boolean; returnData: Hex }): bigint | null {
  if (!result.success) return null;
  try {
    return asset.address === null
      ? decodeFunctionResult({ abi: multicall3Abi, functionName: "getEthBalance", data: result.returnData })
      : decodeFunctionResult({ abi: erc20Abi, functionName: "balanceOf", data: result.returnData });
  } catch {
    return null;
  }
}

const SWEEP_AT = 1000;

interface Cached {
  at: number;
  read: Promise<HeldBalance[]>;
}

/**
 * Balances read on the chain (BALANCE_SOURCE=chain): the native coin and every ERC-20 the catalogue
 * lists on the wallet's chain, in ONE `aggregate3` call to Multicall3 (one eth_call, one block, so
 * the figures agree with each other), kept `cacheTtlMs` per wallet address. A wallet on a chain
 * without a CHAIN_RPC_URLS entry, or a Safe not deployed yet, is answered by `fallback` (the ledger).
 * An unreachable node is CHN-502-001; a token whose call reverts (or that has no code there) is left
 * out and logged.
 */
export class ChainBalanceSource implements BalanceSource {
  private readonly clients: ChainClients;
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly db: FinanceDb,
    private readonly chainRpcUrls: Readonly<Record<number, string>>,
    private readonly fallback: BalanceSource,
    private readonly options: { cacheTtlMs: number; logger?: Logger; now?: () => number },
  ) {
    this.clients = new ChainClients(chainRpcUrls);
  }

  walletBalances(wallet: BalanceWallet): Promise<HeldBalance[]> {
    if (wallet.address === null || this.chainRpcUrls[wallet.chain_id] === undefined) return this.fallback.walletBalances(wallet);
    const now = (this.options.now ?? Date.now)();
    const key = `${wallet.chain_id}:${wallet.address.toLowerCase()}`;
    const cached = this.cache.get(key);
    if (cached && now - cached.at < this.options.cacheTtlMs) return cached.read;
    const read = this.read(wallet.chain_id, getAddress(wallet.address));
    if (this.options.cacheTtlMs === 0) return read;
    this.forgetExpired(now);
    this.cache.set(key, { at: now, read });
    // a failed read is not kept: the next request asks the node again
    read.catch(() => this.cache.get(key)?.read === read && this.cache.delete(key));
    return read;
  }

  /** keeps the cache bounded by the wallets read within one TTL */
  private forgetExpired(now: number): void {
    if (this.cache.size < SWEEP_AT) return;
    for (const [key, entry] of this.cache) if (now - entry.at >= this.options.cacheTtlMs) this.cache.delete(key);
  }

  private async read(chainId: number, owner: Address): Promise<HeldBalance[]> {
    const assets = (await this.db.assetContract.findMany({ where: { chain_id: chainId }, select: { address: true, asset: { select: { symbol: true } } }, orderBy: { asset_id: "asc" } })).map(
      (row) => ({ symbol: row.asset.symbol, address: row.address }),
    );
    if (assets.length === 0) return [];
    let results: readonly { success: boolean; returnData: Hex }[];
    try {
      results = await this.clients.get(chainId).readContract({ address: MULTICALL3_ADDRESS, abi: multicall3Abi, functionName: "aggregate3", args: [balanceCalls(owner, assets)] });
    } catch (error) {
      this.options.logger?.warn({ err: error, chain_id: chainId }, "balance multicall failed");
      throw appError("CHN-502-001", `Balances on chain ${chainId} could not be read; retry later.`);
    }
    return assets.flatMap((asset, index) => {
      const balance = decodeBalance(asset, results[index]!);
      if (balance === null) {
        this.options.logger?.warn({ chain_id: chainId, symbol: asset.symbol, token: asset.address }, "balance call reverted or answered no balance; left out");
        return [];
      }
      return balance === 0n ? [] : [{ symbol: asset.symbol, balance: balance.toString() }];
    });
  }
}
