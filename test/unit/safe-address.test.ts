import {
  concat,
  decodeFunctionData,
  getAddress,
  keccak256,
  maxUint256,
  pad,
  toHex,
  zeroAddress,
  type Address,
  type Hex,
} from "viem";
import { describe, expect, it } from "vitest";
import { InvalidSafeConfigError, encodeSafeInitializer, predictSafeAddress } from "../../subgraphs/users/safe/safe-address.ts";
import {
  COMPATIBILITY_FALLBACK_HANDLER,
  SAFE_ABI,
  SAFE_L2_SINGLETON,
  SAFE_PROXY_CREATION_CODE,
  SAFE_PROXY_FACTORY,
  SAFE_SINGLETON,
  safeSingletonFor,
} from "../../subgraphs/users/safe/safe-contracts.ts";

const OWNER_A: Address = "0x0000000000000000000000000000000000000002";
const OWNER_B: Address = "0x0000000000000000000000000000000000000003";
const BASE = 8453;

/**
 * Published vector, Bananapus/juice-sdk-v4 packages/core/src/safe.test.ts ("predicts the address
 * the canonical factory itself returns"): an eth_call of the canonical v1.4.1 factory's
 * createProxyWithNonce(Safe 0x41675C…, setup([0x…02, 0x…03], 2, 0, 0x, 0xfd0732…, 0, 0, 0), 42).
 * The same file pins keccak256 of proxyCreationCode() as read from the factory.
 */
const PUBLISHED = {
  request: { owners: [OWNER_A, OWNER_B], threshold: 2, saltNonce: 42n, chainId: 1 },
  address: "0x53a62fb237E097DEa3714015Bced94790fE5c3BB",
  proxyCreationCodeHash: "0x1856e0ee08399d74e0ea0b03adca210aeade6f748969ac023cdcb4dd62dcaf5f",
};

/** CREATE2 written out from EIP-1014 and SafeProxyFactory.deployProxy, sharing no code with the module. */
function create2ByHand(singleton: Address, initializer: Hex, saltNonce: bigint): Address {
  const salt = keccak256(concat([keccak256(initializer), pad(toHex(saltNonce), { size: 32 })]));
  const initCodeHash = keccak256(concat([SAFE_PROXY_CREATION_CODE, pad(singleton, { size: 32 })]));
  const hash = keccak256(concat(["0xff", SAFE_PROXY_FACTORY, salt, initCodeHash]));
  return getAddress(`0x${hash.slice(-40)}`);
}

describe("proxy creation code", () => {
  it("is the v1.4.1 SafeProxyFactory.proxyCreationCode()", () => {
    expect((SAFE_PROXY_CREATION_CODE.length - 2) / 2).toBe(486);
    expect(keccak256(SAFE_PROXY_CREATION_CODE)).toBe(PUBLISHED.proxyCreationCodeHash);
  });
});

describe("predictSafeAddress", () => {
  it("matches the published address of the canonical v1.4.1 factory", () => {
    expect(predictSafeAddress(PUBLISHED.request)).toBe(PUBLISHED.address);
  });

  it("uses the plain Safe on Ethereum and SafeL2 elsewhere", () => {
    expect(safeSingletonFor(1)).toBe(SAFE_SINGLETON);
    expect(safeSingletonFor(BASE)).toBe(SAFE_L2_SINGLETON);
    const onBase = predictSafeAddress({ ...PUBLISHED.request, chainId: BASE });
    expect(onBase).not.toBe(PUBLISHED.address);
    expect(onBase).toBe(create2ByHand(SAFE_L2_SINGLETON, encodeSafeInitializer(PUBLISHED.request), 42n));
  });

  it("agrees with a hand-written CREATE2 for large salt nonces and many owners", () => {
    const owners = Array.from({ length: 5 }, (_, i) => getAddress(pad(toHex(0xabc0 + i), { size: 20 })));
    for (const saltNonce of [0n, 1n, 2n ** 64n + 7n, maxUint256]) {
      const request = { owners, threshold: 3, saltNonce, chainId: BASE };
      expect(predictSafeAddress(request)).toBe(create2ByHand(SAFE_L2_SINGLETON, encodeSafeInitializer(request), saltNonce));
    }
  });

  it("changes with owner order, threshold and salt nonce, not with address case", () => {
    const base = predictSafeAddress(PUBLISHED.request);
    expect(predictSafeAddress({ ...PUBLISHED.request, owners: [OWNER_B, OWNER_A] })).not.toBe(base);
    expect(predictSafeAddress({ ...PUBLISHED.request, threshold: 1 })).not.toBe(base);
    expect(predictSafeAddress({ ...PUBLISHED.request, saltNonce: 43n })).not.toBe(base);
    const mixedCase = getAddress("0x8ba1f109551bd432803012645ac136ddd64dba72");
    const lower = mixedCase.toLowerCase() as Address;
    expect(predictSafeAddress({ ...PUBLISHED.request, owners: [lower], threshold: 1 })).toBe(
      predictSafeAddress({ ...PUBLISHED.request, owners: [mixedCase], threshold: 1 }),
    );
  });

  it.each([
    ["no owners", { owners: [], threshold: 1 }],
    ["the zero address", { owners: [zeroAddress], threshold: 1 }],
    ["the sentinel owner", { owners: ["0x0000000000000000000000000000000000000001" as Address], threshold: 1 }],
    ["a duplicate owner", { owners: [OWNER_A, OWNER_B, OWNER_A], threshold: 1 }],
    ["a duplicate owner in another case", { owners: ["0x000000000000000000000000000000000000dEaD", "0x000000000000000000000000000000000000dead"] as Address[], threshold: 1 }],
    ["a malformed owner", { owners: ["0x1234" as Address], threshold: 1 }],
    ["threshold 0", { owners: [OWNER_A], threshold: 0 }],
    ["threshold above the owner count", { owners: [OWNER_A, OWNER_B], threshold: 3 }],
    ["a fractional threshold", { owners: [OWNER_A, OWNER_B], threshold: 1.5 }],
    ["a negative salt nonce", { saltNonce: -1n }],
    ["a salt nonce above uint256", { saltNonce: maxUint256 + 1n }],
  ])("rejects %s, which Safe.setup or the factory would refuse", (_, change) => {
    expect(() => predictSafeAddress({ ...PUBLISHED.request, ...change })).toThrow(InvalidSafeConfigError);
  });
});

describe("encodeSafeInitializer", () => {
  it("is Safe.setup with no delegatecall, no payment and the v1.4.1 fallback handler", () => {
    const initializer = encodeSafeInitializer({ owners: [OWNER_A, OWNER_B], threshold: 2 });
    // setup(address[],uint256,address,bytes,address,address,uint256,address), as Safe setup calldata starts on chain.
    expect(initializer.slice(0, 10)).toBe("0xb63e800d");
    expect(decodeFunctionData({ abi: SAFE_ABI, data: initializer }).args).toEqual([
      [OWNER_A, OWNER_B],
      2n,
      zeroAddress,
      "0x",
      COMPATIBILITY_FALLBACK_HANDLER,
      zeroAddress,
      0n,
      zeroAddress,
    ]);
  });
});
