import { isRpcUnavailable } from "../../../lib/chain/rpc-errors.ts";
import {
  BaseError,
  createPublicClient,
  getAddress,
  hashMessage,
  parseAbi,
  http,
  recoverAddress,
  recoverTypedDataAddress,
  size,
  slice,
  hexToNumber,
  concat,
  toHex,
  type Address,
  type Hex,
} from "viem";
import { appError } from "../../../lib/errors/app-error.ts";
import { mandateTypedData, safeMessageHash, type Mandate } from "./mandate.ts";

/**
 * Signature checks of a mandate.
 *
 * - `signer == wallet` (an EOA wallet signing for itself): ECDSA recovery of the EIP-712 digest
 *   must give the wallet (PINT-401-001 otherwise).
 * - `signer != wallet` (a Safe, signed for by one of its owners): the signature is in Safe's
 *   format (65-byte owner signatures, concatenated). It must hold an ECDSA signature by `signer`
 *   over the Safe's `SafeMessage` hash of the digest (`v` 27/28: EIP-712 signature of it; `v`
 *   31/32: `eth_sign` of it) — PINT-401-001 otherwise, so a mandate cannot claim a signer who
 *   did not sign. Then the Safe itself must accept it: EIP-1271 `isValidSignature(digest,
 *   signature)` returning `0x1626ba7e` (or the legacy `isValidSignature(bytes,bytes)` returning
 *   `0x20c13b0b`) through the chain's `CHAIN_RPC_URLS` entry — PINT-401-002 when it does not,
 *   PINT-424-001 when the RPC gives no answer.
 */

/** The address whose ECDSA signature `signature` is over the mandate's EIP-712 digest, or null. */
export async function recoverMandateSigner(chainId: number, mandate: Mandate, salt: Hex, signature: Hex): Promise<Address | null> {
  if (size(signature) !== 65) return null;
  try {
    return getAddress(await recoverTypedDataAddress({ ...mandateTypedData(chainId, mandate, salt), signature }));
  } catch {
    return null;
  }
}

/** The owners whose ECDSA signatures (Safe format, 65 bytes each) over the Safe's message hash of `digest` are in `signature`. */
export async function recoverSafeOwnerSigners(chainId: number, safe: Address, digest: Hex, signature: Hex): Promise<Address[]> {
  const hash = safeMessageHash(chainId, safe, digest);
  const owners: Address[] = [];
  // static parts first; a contract signature (v 0) points into a dynamic part after them, which is skipped
  for (let offset = 0; offset + 65 <= size(signature); offset += 65) {
    const part = slice(signature, offset, offset + 65);
    const v = hexToNumber(slice(part, 64, 65));
    try {
      if (v === 27 || v === 28) owners.push(getAddress(await recoverAddress({ hash, signature: part })));
      else if (v === 31 || v === 32)
        owners.push(getAddress(await recoverAddress({ hash: hashMessage({ raw: hash }), signature: concat([slice(part, 0, 64), toHex(v - 4, { size: 1 })]) })));
      else if (v > 32 || (v !== 0 && v !== 1)) break; // not Safe's format: stop reading
    } catch {
      // an unrecoverable part signs for nobody
    }
  }
  return owners;
}

// EIP-1271 on bytes32, and the legacy Safe form on bytes (0x20c13b0b)
const EIP1271_ABI = parseAbi(["function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4 magicValue)"]);
const LEGACY_EIP1271_ABI = parseAbi(["function isValidSignature(bytes data, bytes signature) view returns (bytes4 magicValue)"]);

const MAGIC = "0x1626ba7e";
const LEGACY_MAGIC = "0x20c13b0b";

function unavailable(chainId: number, cause: unknown, detail?: string) {
  return appError(
    "PINT-424-001",
    detail ?? `The on-chain EIP-1271 call to the Safe on chain ${chainId} failed (the chain's RPC did not answer); retry with exponential backoff.`,
    { cause },
  );
}

export interface SafeSignatureCheck {
  chainId: number;
  safe: Address;
  digest: Hex;
  signature: Hex;
}

/** Asks a Safe (any EIP-1271 contract) whether it accepts a signature, through the chain's RPC (viem). */
export class Eip1271Verifier {
  /** chain id each RPC URL reported, once it answered */
  private readonly reported = new Map<string, number>();

  constructor(
    private readonly rpcUrls: Readonly<Record<number, string>>,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Resolves when the Safe accepts; throws PINT-401-002 when it does not, PINT-424-001 when the chain cannot be asked. */
  async verify(check: SafeSignatureCheck): Promise<void> {
    const url = this.rpcUrls[check.chainId];
    if (!url)
      throw appError("PINT-401-002", `No RPC is configured for chain ${check.chainId} (CHAIN_RPC_URLS), so the Safe's EIP-1271 signature cannot be checked there.`);
    const client = createPublicClient({ transport: http(url, { timeout: this.timeoutMs, retryCount: 1, batch: false }) });

    let reported = this.reported.get(url);
    if (reported === undefined) {
      try {
        reported = await client.getChainId();
      } catch (error) {
        throw unavailable(check.chainId, error);
      }
      this.reported.set(url, reported);
    }
    if (reported !== check.chainId)
      throw unavailable(check.chainId, undefined, `The RPC configured for chain ${check.chainId} serves chain ${reported}; the Safe's signature cannot be checked until CHAIN_RPC_URLS is corrected.`);

    const ask = async (legacy: boolean): Promise<boolean> => {
      try {
        const answer = legacy
          ? await client.readContract({ address: check.safe, abi: LEGACY_EIP1271_ABI, functionName: "isValidSignature", args: [check.digest, check.signature] })
          : await client.readContract({ address: check.safe, abi: EIP1271_ABI, functionName: "isValidSignature", args: [check.digest, check.signature] });
        return answer.toLowerCase() === (legacy ? LEGACY_MAGIC : MAGIC);
      } catch (error) {
        // anything but a viem error is a failure to get an answer, not the contract's "no"
        if (!(error instanceof BaseError) || isRpcUnavailable(error)) throw unavailable(check.chainId, error);
        return false;
      }
    };
    if (await ask(false)) return;
    if (await ask(true)) return;
    throw appError("PINT-401-002", `The Safe ${check.safe} on chain ${check.chainId} did not accept the signature (EIP-1271 isValidSignature).`);
  }
}
