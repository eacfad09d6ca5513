import {
  BaseError,
  WaitForTransactionReceiptTimeoutError,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  isAddressEqual,
  parseEventLogs,
  type Address,
  type Chain,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { encodeSafeInitializer } from "./safe-address.ts";
import { SAFE_PROXY_FACTORY, SAFE_PROXY_FACTORY_ABI, safeSingletonFor } from "./safe-contracts.ts";
import { predictOrRefuse, type SafeDeployer, type SafeDeploymentRequest, type SafeDeploymentResult } from "./safe-deployer.ts";

export interface ChainSafeDeployerOptions {
  /** JSON-RPC endpoint per chain id; a chain without one cannot be deployed to. */
  rpcUrls: Record<number, string>;
  /** Key of the account that sends (and pays for) `createProxyWithNonce`. */
  deployerKey: Hex;
  /** How long to wait for the receipt before answering `pending`. */
  receiptTimeoutMs?: number;
}

// A mined transaction usually shows up within a few blocks; asking again sooner only costs RPC calls.
const RECEIPT_RETRY_AFTER_MS = 30_000;

interface ChainClients {
  public: PublicClient;
  wallet: WalletClient<Transport, Chain, PrivateKeyAccount>;
}

/**
 * Deploys Safes through the canonical v1.4.1 SafeProxyFactory. Idempotent because the address is
 * CREATE2-determined: every call first looks for code there, and a Safe that exists is reported
 * `completed` without sending anything. A retry that overlaps a transaction still in the mempool
 * can send a second one; CREATE2 makes that one revert, so the worst case is its gas, never a
 * second Safe.
 */
export class ChainSafeDeployer implements SafeDeployer {
  readonly name = "chain";
  private readonly account: PrivateKeyAccount;
  private readonly rpcUrls: Record<number, string>;
  private readonly receiptTimeoutMs: number;
  private readonly clients = new Map<number, ChainClients>();
  // Concurrent calls for one event share a single attempt rather than racing two transactions.
  private readonly inFlight = new Map<string, Promise<SafeDeploymentResult>>();

  constructor(options: ChainSafeDeployerOptions) {
    this.account = privateKeyToAccount(options.deployerKey);
    this.rpcUrls = options.rpcUrls;
    this.receiptTimeoutMs = options.receiptTimeoutMs ?? 120_000;
  }

  deploy(request: SafeDeploymentRequest): Promise<SafeDeploymentResult> {
    const running = this.inFlight.get(request.eventId);
    if (running) return running;
    const attempt = this.attempt(request).finally(() => this.inFlight.delete(request.eventId));
    this.inFlight.set(request.eventId, attempt);
    return attempt;
  }

  private async attempt(request: SafeDeploymentRequest): Promise<SafeDeploymentResult> {
    const clients = this.clientsFor(request.chainId);
    if (!clients) return { status: "failed", reason: `no RPC URL for chain ${request.chainId}`, retryable: false };
    const predicted = predictOrRefuse(request);
    if ("failure" in predicted) return predicted.failure;
    const { address } = predicted;
    try {
      return await this.deployAt(clients, request, address);
    } catch (error) {
      // Whatever is left is the node or the network (timeouts, rate limits, an underfunded deployer):
      // a later attempt may succeed. shortMessage, not message: viem's details can carry the RPC URL,
      // and RPC URLs often embed an API key.
      const reason = error instanceof BaseError ? error.shortMessage : String(error);
      return { status: "failed", reason, retryable: true };
    }
  }

  private async deployAt(clients: ChainClients, request: SafeDeploymentRequest, address: Address): Promise<SafeDeploymentResult> {
    // Checked before trusting getCode: the factory and Safe addresses are the same on every chain, so
    // an RPC URL pointing at the wrong chain would report another chain's Safe as this one's.
    const servedChainId = await clients.public.getChainId();
    if (servedChainId !== request.chainId)
      return { status: "failed", reason: `RPC URL for chain ${request.chainId} serves chain ${servedChainId}`, retryable: false };
    if (await this.isDeployed(clients.public, address)) return { status: "completed", address };

    const hash = await clients.wallet.writeContract({
      address: SAFE_PROXY_FACTORY,
      abi: SAFE_PROXY_FACTORY_ABI,
      functionName: "createProxyWithNonce",
      args: [safeSingletonFor(request.chainId), encodeSafeInitializer(request), request.saltNonce],
    });
    let receipt;
    try {
      receipt = await clients.public.waitForTransactionReceipt({ hash, timeout: this.receiptTimeoutMs });
    } catch (error) {
      if (error instanceof WaitForTransactionReceiptTimeoutError) return { status: "pending", retryAfterMs: RECEIPT_RETRY_AFTER_MS };
      throw error;
    }

    if (receipt.status === "reverted") {
      // Another transaction for the same address can land first; ours then reverts, yet the Safe exists.
      if (await this.isDeployed(clients.public, address)) return { status: "completed", address };
      return { status: "failed", reason: `deployment transaction ${hash} reverted`, retryable: true };
    }
    const [created] = parseEventLogs({ abi: SAFE_PROXY_FACTORY_ABI, eventName: "ProxyCreation", logs: receipt.logs });
    // The address is what the user is given before deployment; a mismatch means the prediction is
    // wrong, which no retry fixes.
    if (!created || !isAddressEqual(created.args.proxy, address))
      return { status: "failed", reason: `factory created ${created?.args.proxy ?? "no proxy"}, predicted ${address}`, retryable: false };
    return { status: "completed", address, transactionHash: hash };
  }

  private async isDeployed(client: PublicClient, address: Address): Promise<boolean> {
    const code = await client.getCode({ address });
    return code !== undefined && code !== "0x";
  }

  private clientsFor(chainId: number): ChainClients | undefined {
    const cached = this.clients.get(chainId);
    if (cached) return cached;
    const url = this.rpcUrls[chainId];
    if (!url) return undefined;
    // A minimal chain definition: viem needs one to sign for this chain id and refuses to send when
    // the node reports another.
    const chain = defineChain({
      id: chainId,
      name: `chain ${chainId}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [url] } },
    });
    const clients: ChainClients = {
      public: createPublicClient({ chain, transport: http(url) }),
      wallet: createWalletClient({ chain, transport: http(url), account: this.account }),
    };
    this.clients.set(chainId, clients);
    return clients;
  }
}
