import { createPublicClient, http, type PublicClient } from "viem";

/** One viem client per chain of CHAIN_RPC_URLS, made on first use (price feeds and balances read through them). */
export class ChainClients {
  private readonly clients = new Map<number, PublicClient>();

  constructor(private readonly chainRpcUrls: Readonly<Record<number, string>>) {}

  get(chainId: number): PublicClient {
    let client = this.clients.get(chainId);
    if (!client) {
      client = createPublicClient({ transport: http(this.chainRpcUrls[chainId], { retryCount: 1, timeout: 10_000 }) });
      this.clients.set(chainId, client);
    }
    return client;
  }
}
