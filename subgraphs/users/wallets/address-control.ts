import { createPublicClient, http, verifyMessage, type Address, type Hex } from "viem";
import { appError } from "../../../lib/errors/app-error.ts";

/** A proof older (or further in the future) than this is refused, so a captured one soon goes stale. */
export const PROOF_MAX_AGE_MS = 10 * 60_000;

export function isFreshProof(issuedAt: number, now: number = Date.now()): boolean {
  return Math.abs(now - issuedAt) <= PROOF_MAX_AGE_MS;
}

/**
 * Who signs for the address: `EOA` by EIP-191 `personal_sign` (checked offline); `contract` by
 * ERC-1271, or ERC-6492 before deployment (checked on `chain_id`'s RPC); `either`: ECDSA first,
 * then on chain when the chain has an RPC.
 */
export type SignerKind = "EOA" | "contract" | "either";

export interface AddressControlProof {
  address: Address;
  message: string;
  signature: string;
  signer: SignerKind;
  chain_id: number;
  chainRpcUrls: Readonly<Record<number, string>>;
}

/**
 * Whether `signature` over `message` proves control of `address`: the one check behind every
 * "prove you hold this wallet" of the users subgraph (wallet registration, user registration,
 * pregenerated wallets). An unreachable chain is CHN-502-001, never a silent false.
 */
export async function verifyAddressControl(proof: AddressControlProof): Promise<boolean> {
  const { address, message } = proof;
  const signature = proof.signature as Hex;
  if (proof.signer !== "contract" && (await verifyMessage({ address, message, signature }).catch(() => false))) return true;
  if (proof.signer === "EOA") return false;
  const rpc = proof.chainRpcUrls[proof.chain_id];
  if (!rpc) {
    if (proof.signer === "either") return false;
    throw appError("CHN-502-001", `No RPC is configured for chain ${proof.chain_id}, so the contract's signature cannot be checked.`);
  }
  // viem's public verifyMessage asks the contract (ERC-1271) and unwraps ERC-6492 signatures
  const client = createPublicClient({ transport: http(rpc, { retryCount: 1, timeout: 10_000 }) });
  try {
    return await client.verifyMessage({ address, message, signature });
  } catch (error) {
    throw appError("CHN-502-001", undefined, { cause: error });
  }
}
