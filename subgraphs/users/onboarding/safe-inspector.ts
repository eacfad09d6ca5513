import {
  AbiDecodingDataSizeTooSmallError,
  AbiDecodingZeroDataError,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  createPublicClient,
  http,
  parseAbi,
  type Address,
} from "viem";
import { AppError, appError } from "../../../lib/errors/app-error.ts";

/** What onboarding needs to know about an existing Safe. */
export interface SafeInfo {
  version: string;
  owners: Address[];
  threshold: number;
}

/**
 * Reads a Safe on its chain. `null` means the address holds no Safe (no code, or the Safe getters
 * revert or return nothing); an unreachable chain is CHN-502-001.
 */
export interface SafeInspector {
  inspect(chainId: number, address: Address): Promise<SafeInfo | null>;
}

const SAFE_READ_ABI = parseAbi([
  "function VERSION() view returns (string)",
  "function getOwners() view returns (address[])",
  "function getThreshold() view returns (uint256)",
]);

/** The call answered, but not like a Safe: a revert, no return data, or data of the wrong shape. */
function isNotASafe(error: BaseError): boolean {
  return Boolean(
    error.walk(
      (e) =>
        e instanceof ContractFunctionRevertedError ||
        e instanceof ContractFunctionZeroDataError ||
        e instanceof AbiDecodingZeroDataError ||
        e instanceof AbiDecodingDataSizeTooSmallError ||
        (e instanceof BaseError && e.name === "PositionOutOfBoundsError"),
    ),
  );
}

/** Over JSON-RPC, with the RPC URL configured for the chain (CHAIN_RPC_URLS). */
export class RpcSafeInspector implements SafeInspector {
  constructor(private readonly rpcUrls: Readonly<Record<number, string>>) {}

  async inspect(chainId: number, address: Address): Promise<SafeInfo | null> {
    const url = this.rpcUrls[chainId];
    if (!url) throw appError("CHN-502-001", `No RPC is configured for chain ${chainId}, so the Safe cannot be checked.`);
    const client = createPublicClient({ transport: http(url, { retryCount: 1, timeout: 10_000 }) });
    try {
      // the Safe contracts sit at the same addresses on every chain: a URL serving another chain would mislead
      const served = await client.getChainId();
      if (served !== chainId) throw appError("CHN-502-001", `The RPC configured for chain ${chainId} serves chain ${served}.`);
      const code = await client.getCode({ address });
      if (code === undefined || code === "0x") return null;
      const [version, owners, threshold] = await Promise.all([
        client.readContract({ address, abi: SAFE_READ_ABI, functionName: "VERSION" }),
        client.readContract({ address, abi: SAFE_READ_ABI, functionName: "getOwners" }),
        client.readContract({ address, abi: SAFE_READ_ABI, functionName: "getThreshold" }),
      ]);
      return { version, owners: [...owners], threshold: Number(threshold) };
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof BaseError && isNotASafe(error)) return null;
      // never the message: viem's details can carry the RPC URL, which often embeds an API key
      throw appError("CHN-502-001", `Chain ${chainId} could not be reached to check the Safe; retry later.`, { cause: error });
    }
  }
}
