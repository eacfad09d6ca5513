import { validationError } from "./errors/app-error.ts";

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

/** Whether `chainId` is one of `supported` (the list `supportedChainIds` gives at start-up). */
export function isSupportedChain(supported: readonly number[], chainId: unknown): chainId is number {
  return typeof chainId === "number" && supported.includes(chainId);
}

/** A request's `chain_id` on a chain this deployment does not serve: 422 at `loc`, naming the supported ones. */
export function requireSupportedChain(supported: readonly number[], chainId: number, loc: (string | number)[] = ["chain_id"]): void {
  if (!isSupportedChain(supported, chainId)) throw validationError(loc, "Value error, unsupported chain", chainId, "value_error", { supported });
}
