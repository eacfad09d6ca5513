import { isRpcUnavailable } from "../../../lib/chain/rpc-errors.ts";
import {
  createPublicClient,
  custom,
  http,
  type Hex,
  type PublicClient,
  type Transport,
} from "viem";
import { verifySiweMessage, type VerifySiweMessageParameters } from "viem/siwe";
import { appError } from "../../../lib/errors/app-error.ts";

/**
 * The signature check of a SIWE message, with viem's `verifySiweMessage`:
 *
 * 1. ECDSA first, with no network at all: a signature by the address's own key (an EOA) is
 *    valid on every chain.
 * 2. Otherwise the address may be a smart account: ERC-1271 `isValidSignature` when deployed,
 *    ERC-6492 (the signature wraps a factory call) when not yet deployed. Both are `eth_call`s on
 *    the message's chain, through that chain's `CHAIN_RPC_URLS` entry. The RPC must report the
 *    message's chain id (checked once per URL) so a misconfigured URL cannot vouch for another chain.
 *
 * Outcomes: valid; SIW-401-001 (not valid, or a smart-account signature with no RPC configured
 * for its chain, said so in the detail); CHN-502-001 (the RPC could not be reached or did not
 * answer: retrying the same signed message later may succeed).
 */

export interface SignatureCheck {
  message: string;
  signature: Hex;
  address: Hex;
  chainId: number;
  /** time for viem's own expiration / not-before check (already checked by the rules; kept consistent) */
  now: Date;
  /** the RPC URL of the message's chain, if configured */
  rpcUrl?: string;
  /** per RPC request; default 10 s */
  rpcTimeoutMs?: number;
}

class NoRpcConfigured extends Error {}

/** A client whose every RPC request fails: the ECDSA path of viem needs none. */
const OFFLINE_CLIENT: PublicClient = createPublicClient({
  transport: custom(
    {
      request: async () => {
        throw new NoRpcConfigured("no RPC");
      },
    },
    { retryCount: 0 },
  ),
});


/** An http transport that remembers whether any request failed for lack of an answer. */
function recordingTransport(url: string, timeout: number, failures: unknown[]): Transport {
  const inner = http(url, { timeout, retryCount: 1, batch: false });
  return ((params: Parameters<Transport>[0]) => {
    const transport = inner(params);
    return {
      ...transport,
      request: (async (args: unknown, options: unknown) => {
        try {
          return await (transport.request as (a: unknown, o: unknown) => Promise<unknown>)(args, options);
        } catch (error) {
          if (isRpcUnavailable(error)) failures.push(error);
          throw error;
        }
      }) as typeof transport.request,
    };
  }) as Transport;
}

/** chain id reported by each RPC URL, once it answered */
const reportedChainIds = new Map<string, number>();

function chainUnavailable(chainId: number, cause: unknown) {
  return appError("CHN-502-001", `The RPC of chain ${chainId} did not answer, so the smart-account signature could not be checked; retry the same request later.`, { cause });
}

export async function verifySiweSignature(check: SignatureCheck): Promise<void> {
  const parameters = { message: check.message, signature: check.signature, address: check.address, time: check.now };

  // 1. an EOA: ECDSA recovery, no RPC (mode "eoa" makes viem try recovery before any call)
  const eoa = await verifySiweMessage(OFFLINE_CLIENT, { ...parameters, mode: "eoa" } as VerifySiweMessageParameters).catch(() => false);
  if (eoa) return;

  // 2. a smart account: ERC-1271 / ERC-6492 on the message's chain
  if (!check.rpcUrl)
    throw appError(
      "SIW-401-001",
      `The signature is not an ECDSA signature by ${check.address}. Smart-account signatures (ERC-1271, ERC-6492) are checked on chain, and no RPC is configured for chain ${check.chainId} (CHAIN_RPC_URLS).`,
    );
  const failures: unknown[] = [];
  const client = createPublicClient({ transport: recordingTransport(check.rpcUrl, check.rpcTimeoutMs ?? 10_000, failures) });

  let reported = reportedChainIds.get(check.rpcUrl);
  if (reported === undefined) {
    try {
      reported = await client.getChainId();
    } catch (error) {
      throw chainUnavailable(check.chainId, error);
    }
    reportedChainIds.set(check.rpcUrl, reported);
  }
  if (reported !== check.chainId)
    throw appError("CHN-502-001", `The RPC configured for chain ${check.chainId} serves chain ${reported}; the signature cannot be checked until CHAIN_RPC_URLS is corrected.`);

  let valid: boolean;
  try {
    valid = await verifySiweMessage(client, parameters);
  } catch (error) {
    // viem rethrows what is not a plain verification failure: an RPC that did not answer, or input it cannot use
    if (failures.length > 0 || isRpcUnavailable(error)) throw chainUnavailable(check.chainId, error);
    throw appError("SIW-401-001", `The signature could not be checked as an ERC-1271 / ERC-6492 signature of ${check.address} on chain ${check.chainId}.`, { cause: error });
  }
  if (valid) return;
  // viem reports a failed eth_call as an invalid signature; tell an unreachable RPC apart
  if (failures.length > 0) throw chainUnavailable(check.chainId, failures[0]);
  throw appError("SIW-401-001", `The signature is valid neither as an ECDSA signature by ${check.address} nor as its ERC-1271 / ERC-6492 signature on chain ${check.chainId}.`);
}
