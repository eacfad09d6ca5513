import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import { createMemoryClient } from "@tevm/memory-client";
import { toHex, type Abi, type Address, type Hex } from "viem";

/** tevm's chain id */
export const DEVNET_CHAIN_ID = 900;

export interface Compiled {
  abi: Abi;
  bytecode: Hex;
}

/** Compiles Solidity in-process with the solc-js that @tevm/memory-client brings along (no download). */
export function compileSolidity(source: string, file = "contracts.sol"): Record<string, Compiled> {
  const solc = createRequire(import.meta.url)("solc") as { compile(input: string): string };
  const input = { language: "Solidity", sources: { [file]: { content: source } }, settings: { outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } } };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  if (errors.length) throw new Error(JSON.stringify(errors));
  return Object.fromEntries(
    Object.entries(output.contracts[file] as Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>).map(([name, contract]) => [
      name,
      { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` as Hex },
    ]),
  );
}

export interface Devnet {
  /** the loopback JSON-RPC endpoint (what CHAIN_RPC_URLS points at) */
  url: string;
  chainId: number;
  /** deploys a contract (a mined transaction) and returns its address */
  deploy(contract: Compiled, args?: unknown[]): Promise<Address>;
  code(address: Address): Promise<Hex | undefined>;
  stop(): Promise<void>;
}

/** The in-process chain (tevm, chain id 900) behind a loopback JSON-RPC endpoint; batches too. */
export async function startDevnet(options: { balances?: Record<Address, bigint> } = {}): Promise<Devnet> {
  const chain = createMemoryClient();
  await chain.tevmReady();
  for (const [address, balance] of Object.entries(options.balances ?? {})) await chain.tevmSetAccount({ address: address as Address, balance });
  const server: Server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const answer = async (call: { id: unknown; method: string; params?: unknown[] }) => {
      try {
        return { jsonrpc: "2.0", id: call.id, result: await chain.request({ method: call.method, params: call.params } as never) };
      } catch (error) {
        const e = error as { code?: number; message?: string; data?: unknown };
        return { jsonrpc: "2.0", id: call.id, error: { code: e.code ?? -32603, message: e.message ?? "error", ...(e.data !== undefined && { data: e.data }) } };
      }
    };
    const body = JSON.parse(raw);
    const result = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(result));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const deployer: Address = "0x1000000000000000000000000000000000000001";
  await chain.tevmSetAccount({ address: deployer, balance: 10n ** 20n });
  // one deployment at a time: each is a transaction from the same account, then a block
  let queue: Promise<unknown> = Promise.resolve();
  const deploy = (contract: Compiled, args: unknown[] = []): Promise<Address> => {
    const run = queue.then(async () => {
      const result = await chain.tevmDeploy({ from: deployer, abi: contract.abi, bytecode: contract.bytecode, args, createTransaction: true } as never);
      if (result.errors?.length || !result.createdAddress) throw new Error(`deploy failed: ${JSON.stringify(result.errors)}`);
      await chain.tevmMine();
      return result.createdAddress as Address;
    });
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    url,
    chainId: DEVNET_CHAIN_ID,
    deploy,
    code: (address) => chain.getCode({ address }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An RPC that answers eth_chainId with `chainId` and HTTP 503 to every other request: a node that is down. */
export async function startFailingRpc(chainId: number): Promise<{ url: string; stop(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const call = JSON.parse(raw);
    if (call.method === "eth_chainId") {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result: toHex(chainId) }));
      return;
    }
    res.statusCode = 503;
    res.end("unavailable");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A JSON-RPC proxy in front of `target` that can be taken down (HTTP 503 to everything) and brought back. */
export async function startSwitchableRpc(target: string): Promise<{ url: string; down: boolean; stop(): Promise<void> }> {
  const state = { down: false };
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    if (state.down) {
      res.statusCode = 503;
      res.end("unavailable");
      return;
    }
    const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: raw });
    res.statusCode = upstream.status;
    res.setHeader("content-type", upstream.headers.get("content-type") ?? "application/json");
    res.end(await upstream.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    get down() {
      return state.down;
    },
    set down(value: boolean) {
      state.down = value;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
