import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toHex, type Address } from "viem";
import { AppError } from "../../../lib/errors/app-error.ts";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import { ChainBalanceSource, MULTICALL3_ADDRESS } from "../../../subgraphs/finance/balances/chain-balance-source.ts";
import { compileSolidity, startDevnet, startSwitchableRpc, type Compiled, type Devnet } from "../../support/devnet.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { newAccount } from "../../support/registration.ts";

// Issue 9: BALANCE_SOURCE=chain reads a wallet's native balance and the catalogue's ERC-20s on its
// chain in ONE Multicall3 call, here on the in-process chain (which has no Multicall3: the test
// puts Multicall3's runtime code at its canonical address, as on every public chain).

// Multicall3's two functions we call, as in the canonical contract (github.com/mds1/multicall)
const CONTRACTS = `
// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Multicall3 {
  struct Call3 { address target; bool allowFailure; bytes callData; }
  struct Result { bool success; bytes returnData; }
  function aggregate3(Call3[] calldata calls) public payable returns (Result[] memory returnData) {
    returnData = new Result[](calls.length);
    for (uint256 i = 0; i < calls.length; i++) {
      (bool success, bytes memory data) = calls[i].target.call(calls[i].callData);
      require(success || calls[i].allowFailure, "Multicall3: call failed");
      returnData[i] = Result(success, data);
    }
  }
  function getEthBalance(address addr) public view returns (uint256 balance) { balance = addr.balance; }
}
contract Token {
  mapping(address => uint256) public balanceOf;
  constructor(address holder, uint256 amount) { balanceOf[holder] = amount; }
}
contract BrokenToken {
  function balanceOf(address) external pure returns (uint256) { revert("broken"); }
}`;

/** A JSON-RPC proxy in front of the devnet that counts the methods it forwards (batches too). */
async function countingRpc(target: string) {
  const calls: string[] = [];
  const server: Server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    for (const call of Array.isArray(body) ? body : [body]) calls.push(call.method);
    const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: raw });
    res.setHeader("content-type", "application/json");
    res.end(await upstream.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, calls, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function rpc(url: string, method: string, params: unknown[]) {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const body = await response.json();
  if (body.error) throw new Error(JSON.stringify(body.error));
  return body.result;
}

let devnet: Devnet;
let counting: Awaited<ReturnType<typeof countingRpc>>;
let platform: TestPlatform;
let db: FinanceDb;
const holder = newAccount();
let token: Address;

beforeAll(async () => {
  devnet = await startDevnet();
  const { Multicall3, Token, BrokenToken } = compileSolidity(CONTRACTS, "balances.sol") as Record<string, Compiled>;
  const deployed = await devnet.deploy(Multicall3!);
  await rpc(devnet.url, "anvil_setCode", [MULTICALL3_ADDRESS, await devnet.code(deployed)]);
  // 1234.5678 USDC (6 decimals) and 1.5 ETH
  token = await devnet.deploy(Token!, [holder.address, 1_234_567_800n]);
  const broken = await devnet.deploy(BrokenToken!);
  await rpc(devnet.url, "anvil_setBalance", [holder.address, toHex(1_500_000_000_000_000_000n)]);
  counting = await countingRpc(devnet.url);

  platform = await startTestPlatform({ CHAIN_RPC_URLS: JSON.stringify({ [devnet.chainId]: counting.url }), BALANCE_SOURCE: "chain", BALANCE_CACHE_SECONDS: "60" });
  db = (platform.subgraphs.finance as any).services.db;
  // the catalogue on the devnet: its native coin, the test's token as USDC, a broken contract as DAI, nothing at all as USDT
  await db.assetContract.createMany({
    data: [
      { asset_id: "ast_eth", chain_id: devnet.chainId, address: null },
      { asset_id: "ast_usdc", chain_id: devnet.chainId, address: token },
      { asset_id: "ast_dai", chain_id: devnet.chainId, address: broken },
      { asset_id: "ast_usdt", chain_id: devnet.chainId, address: "0x3000000000000000000000000000000000000003" },
    ],
  });
});
afterAll(async () => {
  await platform?.stop();
  await counting?.stop();
  await devnet?.stop();
});

describe("GET /v0/wallets/{wallet_id}/assets with BALANCE_SOURCE=chain", () => {
  it("reads the native coin and the catalogue's ERC-20s in one eth_call, then answers from the cache", async () => {
    const { jwt } = await platform.createUser({ account: holder, chain_id: devnet.chainId });
    const wallets = (await (await platform.api("/v0/wallets", { jwt })).json()).items as { id: number; type: string }[];
    const eoa = wallets.find((w) => w.type === "EOA")!.id;

    counting.calls.length = 0;
    const response = await platform.api(`/v0/wallets/${eoa}/assets`, { jwt });
    expect(response.status).toBe(200);
    const body = await response.json();
    // the reverting token and the address without code are left out; USDT shows no zero balance either
    expect(body.assets.map((a: { asset: { symbol: string }; balance: string; value_usd: string }) => [a.asset.symbol, a.balance, a.value_usd])).toEqual([
      ["ETH", "1500000000000000000", "4500"],
      ["USDC", "1234567800", "1234.5678"],
    ]);
    expect(counting.calls.filter((method) => method === "eth_call")).toHaveLength(1);

    // within BALANCE_CACHE_SECONDS the accounts view reuses the EOA's read; each other wallet (the Safe) is one more call
    const accounts = await (await platform.api("/v0/accounts", { jwt })).json();
    expect(accounts.items.find((a: { source_id: string }) => a.source_id === String(eoa)).total_value_usd).toBe("5734.5678");
    const others = accounts.items.filter((a: { source_id: string; address: string | null }) => a.source_id !== String(eoa) && a.address !== null);
    expect(counting.calls.filter((method) => method === "eth_call")).toHaveLength(1 + others.length);
    expect(accounts.total_value_usd).toBe("5734.5678");
  });
});

describe("ChainBalanceSource", () => {
  const ledger = { walletBalances: async () => [{ symbol: "ETH", balance: "7" }] };

  it("keeps the ledger for a chain without an RPC URL and for a Safe not deployed yet", async () => {
    const source = new ChainBalanceSource(db, { [devnet.chainId]: devnet.url }, ledger, { cacheTtlMs: 0 });
    expect(await source.walletBalances({ id: 1, chain_id: 8453, address: holder.address })).toEqual([{ symbol: "ETH", balance: "7" }]);
    expect(await source.walletBalances({ id: 1, chain_id: devnet.chainId, address: null })).toEqual([{ symbol: "ETH", balance: "7" }]);
  });

  it("reads again once the cache has expired", async () => {
    let now = 0;
    const source = new ChainBalanceSource(db, { [devnet.chainId]: devnet.url }, ledger, { cacheTtlMs: 1000, now: () => now });
    const wallet = { id: 1, chain_id: devnet.chainId, address: holder.address };
    expect(await source.walletBalances(wallet)).toContainEqual({ symbol: "USDC", balance: "1234567800" });
    await rpc(devnet.url, "anvil_setBalance", [holder.address, toHex(2n * 10n ** 18n)]);
    now = 999;
    expect(await source.walletBalances(wallet)).toContainEqual({ symbol: "ETH", balance: "1500000000000000000" });
    now = 1000;
    expect(await source.walletBalances(wallet)).toContainEqual({ symbol: "ETH", balance: "2000000000000000000" });
  });

  it("fails with CHN-502-001 when the node cannot be reached, and does not keep the failure", async () => {
    const node = await startSwitchableRpc(devnet.url);
    try {
      const source = new ChainBalanceSource(db, { [devnet.chainId]: node.url }, ledger, { cacheTtlMs: 60_000 });
      const wallet = { id: 1, chain_id: devnet.chainId, address: holder.address };
      node.down = true;
      const error = await source.walletBalances(wallet).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("CHN-502-001");
      node.down = false;
      expect(await source.walletBalances(wallet)).toContainEqual({ symbol: "USDC", balance: "1234567800" });
    } finally {
      await node.stop();
    }
  });
});
