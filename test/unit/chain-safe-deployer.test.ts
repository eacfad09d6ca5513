import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  concat,
  decodeFunctionData,
  encodeAbiParameters,
  getAddress,
  getContractAddress,
  keccak256,
  numberToHex,
  pad,
  parseTransaction,
  recoverTransactionAddress,
  toEventSelector,
  toHex,
  zeroAddress,
  type Address,
  type Hex,
  type TransactionSerialized,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { ChainSafeDeployer } from "../../subgraphs/users/safe/chain-safe-deployer.ts";
import { encodeSafeInitializer, predictSafeAddress } from "../../subgraphs/users/safe/safe-address.ts";
import {
  COMPATIBILITY_FALLBACK_HANDLER,
  SAFE_ABI,
  SAFE_L2_SINGLETON,
  SAFE_PROXY_CREATION_CODE,
  SAFE_PROXY_FACTORY,
  SAFE_PROXY_FACTORY_ABI,
} from "../../subgraphs/users/safe/safe-contracts.ts";
import type { SafeDeploymentRequest } from "../../subgraphs/users/safe/safe-deployer.ts";

const BASE = 8453;
const OWNERS: Address[] = ["0x8ba1f109551bD432803012645Ac136ddd64DBA72", "0x0000000000000000000000000000000000000002"];
const DEPLOYER_KEY = generatePrivateKey();
const PROXY_RUNTIME: Hex = "0x6080";
const PROXY_CREATION_TOPIC = toEventSelector("ProxyCreation(address,address)");

function request(change: Partial<SafeDeploymentRequest> = {}): SafeDeploymentRequest {
  return { eventId: "evt-1", chainId: BASE, owners: OWNERS, threshold: 1, saltNonce: 11n, ...change };
}

interface FakeNodeOptions {
  chainId?: number;
  /** Mined transactions revert instead of creating the proxy. */
  revert?: boolean;
  /** Transactions are accepted but never mined. */
  neverMine?: boolean;
  /** Report this address in ProxyCreation instead of the CREATE2 result. */
  createdAt?: Address;
}

interface FakeNode {
  url: string;
  code: Map<string, Hex>;
  sent: TransactionSerialized[];
  methods: string[];
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/**
 * A JSON-RPC node on loopback with just enough of a chain for viem: code by address, and a factory
 * that deploys a proxy where CREATE2 puts it, computed from the transaction's own calldata the way
 * SafeProxyFactory.deployProxy does (not with the module under test).
 */
async function fakeNode(options: FakeNodeOptions = {}): Promise<FakeNode> {
  const chainId = options.chainId ?? BASE;
  const node: FakeNode = { url: "", code: new Map(), sent: [], methods: [] };
  const receipts = new Map<Hex, object>();

  function mine(raw: TransactionSerialized, hash: Hex): object {
    const tx = parseTransaction(raw);
    const { args } = decodeFunctionData({ abi: SAFE_PROXY_FACTORY_ABI, data: tx.data! });
    const [singleton, initializer, saltNonce] = args;
    const proxy = getContractAddress({
      opcode: "CREATE2",
      from: tx.to!,
      salt: keccak256(concat([keccak256(initializer), pad(toHex(saltNonce), { size: 32 })])),
      bytecode: concat([SAFE_PROXY_CREATION_CODE, pad(singleton, { size: 32 })]),
    });
    const reverted = options.revert === true;
    if (!reverted) node.code.set(proxy.toLowerCase(), PROXY_RUNTIME);
    const logs = reverted
      ? []
      : [
          {
            address: tx.to,
            topics: [PROXY_CREATION_TOPIC, pad(options.createdAt ?? proxy, { size: 32 })],
            data: encodeAbiParameters([{ type: "address" }], [singleton]),
            blockHash: pad("0xb1", { size: 32 }),
            blockNumber: "0x1",
            logIndex: "0x0",
            transactionHash: hash,
            transactionIndex: "0x0",
            removed: false,
          },
        ];
    return {
      transactionHash: hash,
      transactionIndex: "0x0",
      blockHash: pad("0xb1", { size: 32 }),
      blockNumber: "0x1",
      from: privateKeyToAccount(DEPLOYER_KEY).address,
      to: tx.to,
      cumulativeGasUsed: "0x5208",
      gasUsed: "0x5208",
      effectiveGasPrice: "0x2",
      contractAddress: null,
      logs,
      logsBloom: pad("0x0", { size: 256 }),
      status: reverted ? "0x0" : "0x1",
      type: "0x2",
    };
  }

  function answer(method: string, params: unknown[]): unknown {
    switch (method) {
      case "eth_chainId":
        return numberToHex(chainId);
      case "eth_getCode":
        return node.code.get(String(params[0]).toLowerCase()) ?? "0x";
      case "eth_getTransactionCount":
        return "0x0";
      case "eth_blockNumber":
        return "0x1";
      case "eth_getBlockByNumber":
        return { number: "0x1", hash: pad("0xb1", { size: 32 }), baseFeePerGas: "0x1", gasLimit: "0x1c9c380", timestamp: "0x1", transactions: [] };
      case "eth_maxPriorityFeePerGas":
        return "0x1";
      case "eth_estimateGas":
        return "0x493e0";
      case "eth_sendRawTransaction": {
        const raw = params[0] as TransactionSerialized;
        const hash = keccak256(raw);
        node.sent.push(raw);
        if (!options.neverMine) receipts.set(hash, mine(raw, hash));
        return hash;
      }
      case "eth_getTransactionReceipt":
        return receipts.get(params[0] as Hex) ?? null;
      case "eth_getTransactionByHash":
        return null;
      default:
        throw new Error(`fake node: unexpected ${method}`);
    }
  }

  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const { id, method, params } = JSON.parse(body) as { id: number; method: string; params: unknown[] };
      node.methods.push(method);
      let reply: object;
      try {
        reply = { jsonrpc: "2.0", id, result: answer(method, params) };
      } catch (error) {
        reply = { jsonrpc: "2.0", id, error: { code: -32601, message: (error as Error).message } };
      }
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(reply));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  node.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return node;
}

function deployerFor(node: FakeNode, chainId = BASE, receiptTimeoutMs?: number) {
  return new ChainSafeDeployer({ rpcUrls: { [chainId]: node.url }, deployerKey: DEPLOYER_KEY, receiptTimeoutMs });
}

describe("ChainSafeDeployer", () => {
  it("fails permanently, without any RPC call, for a chain that has no RPC URL", async () => {
    const node = await fakeNode();
    const result = await deployerFor(node).deploy(request({ chainId: 10 }));

    expect(result).toEqual({ status: "failed", reason: "no RPC URL for chain 10", retryable: false });
    expect(node.methods).toEqual([]);
  });

  it("fails permanently, without sending anything, for a configuration Safe.setup would reject", async () => {
    const node = await fakeNode();
    const result = await deployerFor(node).deploy(request({ threshold: 3 }));

    expect(result).toMatchObject({ status: "failed", retryable: false });
    expect(node.methods).toEqual([]);
  });

  it("sends createProxyWithNonce with the exact initializer the address prediction uses", async () => {
    const node = await fakeNode();
    const result = await deployerFor(node).deploy(request());

    expect(node.sent).toHaveLength(1);
    const raw = node.sent[0]!;
    const tx = parseTransaction(raw);
    expect(getAddress(tx.to!)).toBe(SAFE_PROXY_FACTORY);
    expect(tx.chainId).toBe(BASE);
    expect(await recoverTransactionAddress({ serializedTransaction: raw })).toBe(privateKeyToAccount(DEPLOYER_KEY).address);
    const call = decodeFunctionData({ abi: SAFE_PROXY_FACTORY_ABI, data: tx.data! });
    expect(call.functionName).toBe("createProxyWithNonce");
    expect(call.args).toEqual([SAFE_L2_SINGLETON, encodeSafeInitializer(request()), 11n]);
    expect(decodeFunctionData({ abi: SAFE_ABI, data: call.args[1] }).args).toEqual([
      OWNERS,
      1n,
      zeroAddress,
      "0x",
      COMPATIBILITY_FALLBACK_HANDLER,
      zeroAddress,
      0n,
      zeroAddress,
    ]);
    expect(result).toEqual({ status: "completed", address: predictSafeAddress(request()), transactionHash: keccak256(raw) });
  });

  it("is idempotent: a retry after the deployment finds the Safe and sends nothing", async () => {
    const node = await fakeNode();
    const deployer = deployerFor(node);
    await deployer.deploy(request());
    const again = await deployer.deploy(request());

    expect(again).toEqual({ status: "completed", address: predictSafeAddress(request()) });
    expect(node.sent).toHaveLength(1);
  });

  it("reports a Safe that is already on chain as completed without a transaction", async () => {
    const node = await fakeNode();
    node.code.set(predictSafeAddress(request()).toLowerCase(), PROXY_RUNTIME);
    const result = await deployerFor(node).deploy(request());

    expect(result).toEqual({ status: "completed", address: predictSafeAddress(request()) });
    expect(node.sent).toEqual([]);
  });

  it("sends one transaction for concurrent calls about the same event", async () => {
    const node = await fakeNode();
    const deployer = deployerFor(node);
    const [a, b] = await Promise.all([deployer.deploy(request()), deployer.deploy(request())]);

    expect(a).toEqual(b);
    expect(node.sent).toHaveLength(1);
  });

  it("answers pending when the transaction is not mined within receiptTimeoutMs", async () => {
    const node = await fakeNode({ neverMine: true });
    const result = await deployerFor(node, BASE, 50).deploy(request());

    expect(result).toEqual({ status: "pending", retryAfterMs: expect.any(Number) });
    expect(node.sent).toHaveLength(1);
  });

  it("fails retryably when the deployment transaction reverts and no Safe appeared", async () => {
    const node = await fakeNode({ revert: true });
    const result = await deployerFor(node).deploy(request());

    expect(result).toEqual({ status: "failed", reason: expect.stringContaining("reverted"), retryable: true });
  });

  it("fails permanently when the factory reports a proxy other than the predicted address", async () => {
    const node = await fakeNode({ createdAt: "0x000000000000000000000000000000000000bEEF" });
    const result = await deployerFor(node).deploy(request());

    expect(result).toMatchObject({ status: "failed", retryable: false });
  });

  it("fails permanently, before reading code, when the RPC URL serves another chain", async () => {
    const node = await fakeNode({ chainId: 10 });
    const result = await deployerFor(node).deploy(request());

    expect(result).toEqual({ status: "failed", reason: "RPC URL for chain 8453 serves chain 10", retryable: false });
    expect(node.methods).not.toContain("eth_getCode");
  });

  it("fails retryably, without leaking the RPC URL, when the node cannot be reached", async () => {
    const node = await fakeNode();
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const result = await deployerFor(node).deploy(request());

    expect(result).toMatchObject({ status: "failed", retryable: true });
    expect(result.status === "failed" && result.reason).not.toContain("127.0.0.1");
  });
});
