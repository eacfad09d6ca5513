import type { Address, Hex } from "viem";
import { InvalidSafeConfigError, predictSafeAddress } from "./safe-address.ts";

/** One Safe to deploy, keyed by the event that asked for it (the caller's job row). */
export interface SafeDeploymentRequest {
  eventId: string;
  chainId: number;
  owners: Address[];
  threshold: number;
  saltNonce: bigint;
}

/**
 * `pending`: not done yet, ask again after `retryAfterMs`. `failed` with `retryable` false means
 * the same request can never succeed (the job should stop); true means a later attempt may.
 * `transactionHash` is absent when the Safe was already on chain and nothing was sent.
 */
export type SafeDeploymentResult =
  | { status: "completed"; address: Address; transactionHash?: Hex }
  | { status: "pending"; retryAfterMs: number }
  | { status: "failed"; reason: string; retryable: boolean };

/**
 * Deploys a user's Safe. Idempotent per `eventId`: asking again for the same event reports the
 * same deployment instead of starting a second one, so the caller may retry freely.
 */
export interface SafeDeployer {
  readonly name: string;
  deploy(request: SafeDeploymentRequest): Promise<SafeDeploymentResult>;
}

/** The Safe's address, or the permanent failure for a configuration `Safe.setup` would revert on. */
export function predictOrRefuse(request: SafeDeploymentRequest): { address: Address } | { failure: SafeDeploymentResult } {
  try {
    return { address: predictSafeAddress(request) };
  } catch (error) {
    if (error instanceof InvalidSafeConfigError) return { failure: { status: "failed", reason: error.message, retryable: false } };
    throw error;
  }
}
