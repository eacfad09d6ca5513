/**
 * Chains the platform accepts for wallets: well-known EVM networks plus any chain that
 * `CHAIN_RPC_URLS` configures (so a local or private chain works once it has an RPC URL).
 */
export const WELL_KNOWN_CHAINS: Readonly<Record<number, string>> = {
  1: "Ethereum",
  10: "OP Mainnet",
  100: "Gnosis",
  137: "Polygon",
  8453: "Base",
  42161: "Arbitrum One",
  11155111: "Sepolia",
  84532: "Base Sepolia",
};

export function supportedChainIds(chainRpcUrls: Readonly<Record<number, string>>): number[] {
  const ids = new Set([...Object.keys(WELL_KNOWN_CHAINS), ...Object.keys(chainRpcUrls)].map(Number));
  return [...ids].sort((a, b) => a - b);
}
