import {
  encodeFunctionData,
  encodePacked,
  getContractAddress,
  isAddress,
  keccak256,
  maxUint256,
  zeroAddress,
  type Address,
  type Hex,
} from "viem";
import {
  COMPATIBILITY_FALLBACK_HANDLER,
  SAFE_ABI,
  SAFE_PROXY_CREATION_CODE,
  SAFE_PROXY_FACTORY,
  safeSingletonFor,
} from "./safe-contracts.ts";

export interface SafeConfig {
  owners: Address[];
  threshold: number;
}

export interface SafeAddressInput extends SafeConfig {
  saltNonce: bigint;
  chainId: number;
}

/** A configuration `Safe.setup` would revert on: there is no address to predict or deploy. */
export class InvalidSafeConfigError extends Error {
  override readonly name = "InvalidSafeConfigError";
}

// OwnerManager's linked-list head: setup rejects it as an owner, like the zero address.
const SENTINEL_OWNER = "0x0000000000000000000000000000000000000001";

/** Rejects what `Safe.setup` (OwnerManager.setupOwners) would revert on, before anyone pays gas. */
function assertValidConfig({ owners, threshold }: SafeConfig): void {
  if (owners.length === 0) throw new InvalidSafeConfigError("a Safe needs at least one owner");
  const seen = new Set<string>();
  for (const owner of owners) {
    if (!isAddress(owner, { strict: false })) throw new InvalidSafeConfigError(`owner ${owner} is not an address`);
    const key = owner.toLowerCase();
    if (key === zeroAddress || key === SENTINEL_OWNER) throw new InvalidSafeConfigError(`owner ${owner} is reserved`);
    if (seen.has(key)) throw new InvalidSafeConfigError(`owner ${owner} is listed twice`);
    seen.add(key);
  }
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > owners.length)
    throw new InvalidSafeConfigError(`threshold ${threshold} is not between 1 and ${owners.length}`);
}

/**
 * `Safe.setup` calldata: the factory calls the new proxy with it, and its hash is part of the CREATE2
 * salt. No setup delegatecall, no payment, the v1.4.1 CompatibilityFallbackHandler. Owner order
 * matters: it changes the calldata and so the address.
 */
export function encodeSafeInitializer(config: SafeConfig): Hex {
  assertValidConfig(config);
  return encodeFunctionData({
    abi: SAFE_ABI,
    functionName: "setup",
    args: [
      config.owners,
      BigInt(config.threshold),
      zeroAddress,
      "0x",
      COMPATIBILITY_FALLBACK_HANDLER,
      zeroAddress,
      0n,
      zeroAddress,
    ],
  });
}

/**
 * The address `SafeProxyFactory.createProxyWithNonce(singleton, initializer, saltNonce)` deploys to
 * (v1.4.1 `deployProxy`): CREATE2 from the factory, salt = keccak256(keccak256(initializer) ++
 * uint256 saltNonce), init code = proxyCreationCode ++ uint256(singleton).
 */
export function predictSafeAddress(input: SafeAddressInput): Address {
  if (input.saltNonce < 0n || input.saltNonce > maxUint256)
    throw new InvalidSafeConfigError(`salt nonce ${input.saltNonce} is not a uint256`);
  const initializer = encodeSafeInitializer(input);
  const salt = keccak256(encodePacked(["bytes32", "uint256"], [keccak256(initializer), input.saltNonce]));
  const deploymentData = encodePacked(
    ["bytes", "uint256"],
    [SAFE_PROXY_CREATION_CODE, BigInt(safeSingletonFor(input.chainId))],
  );
  // getContractAddress returns the EIP-55 checksummed form, the one stored and shown to users.
  return getContractAddress({ opcode: "CREATE2", from: SAFE_PROXY_FACTORY, salt, bytecode: deploymentData });
}
