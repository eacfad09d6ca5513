import type { Address, Hex } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { compileSolidity, type Compiled, type Devnet } from "./devnet.ts";

/**
 * A Safe-like smart account for the in-process chain: `isValidSignature(bytes32 hash, bytes sig)`
 * validates exactly as a Safe (threshold 1, CompatibilityFallbackHandler) does: the owner signs
 * the EIP-712 `SafeMessage(bytes message)` of `abi.encode(hash)` in the domain
 * `{chainId, verifyingContract: safe}` (`v` 27/28), or `eth_sign`s that hash (`v` 31/32).
 */
export const SAFE_LIKE_ACCOUNT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract SafeLikeAccount {
  bytes32 private constant DOMAIN_TYPEHASH = keccak256("EIP712Domain(uint256 chainId,address verifyingContract)");
  bytes32 private constant SAFE_MSG_TYPEHASH = keccak256("SafeMessage(bytes message)");
  mapping(address => bool) public isOwner;
  constructor(address[] memory owners) { for (uint256 i = 0; i < owners.length; i++) isOwner[owners[i]] = true; }
  function domainSeparator() public view returns (bytes32) { return keccak256(abi.encode(DOMAIN_TYPEHASH, block.chainid, address(this))); }
  function isValidSignature(bytes32 hash, bytes calldata sig) external view returns (bytes4) {
    bytes32 messageHash = keccak256(abi.encodePacked(bytes1(0x19), bytes1(0x01), domainSeparator(), keccak256(abi.encode(SAFE_MSG_TYPEHASH, keccak256(abi.encode(hash))))));
    if (sig.length != 65) return 0xffffffff;
    bytes32 r; bytes32 s; uint8 v;
    assembly { r := calldataload(sig.offset) s := calldataload(add(sig.offset, 32)) v := byte(0, calldataload(add(sig.offset, 64))) }
    if (v > 30) { v -= 4; messageHash = keccak256(abi.encodePacked("\\x19Ethereum Signed Message:\\n32", messageHash)); }
    address signer = ecrecover(messageHash, v, r, s);
    return signer != address(0) && isOwner[signer] ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
  }
}`;

let compiled: Compiled | undefined;

/** Deploys a SafeLikeAccount owned by `owners` on the devnet. */
export function deploySafeLikeAccount(devnet: Devnet, owners: Address[]): Promise<Address> {
  compiled ??= compileSolidity(SAFE_LIKE_ACCOUNT, "safe-like-account.sol").SafeLikeAccount!;
  return devnet.deploy(compiled, [owners]);
}

/** An owner's signature of `hash` for the Safe: EIP-712 SafeMessage in the Safe's domain (what a Safe owner's wallet signs). */
export function signAsSafeOwner(owner: PrivateKeyAccount, safe: Address, chainId: number, hash: Hex): Promise<Hex> {
  return owner.signTypedData({
    domain: { chainId, verifyingContract: safe },
    types: { SafeMessage: [{ name: "message", type: "bytes" }] },
    primaryType: "SafeMessage",
    message: { message: hash },
  });
}
