import { randomBytes } from "node:crypto";
import { getAddress, isAddress, type Address } from "viem";
import { parseSiweMessage } from "viem/siwe";
import { isSupportedChain } from "../../../lib/chains.ts";
import { appError } from "../../../lib/errors/app-error.ts";

/**
 * The rules of Sign-in with Ethereum (EIP-4361) as pure functions over an injected clock: what a
 * nonce looks like and when it may be used, which messages are acceptable, how long the session
 * lasts. No I/O here; `siwe-sign-in.ts` composes these with the nonce table and the signature check.
 */

/** A nonce is usable for this long after it was issued. */
export const SIWE_NONCE_TTL_MS = 10 * 60_000;
/** A session token lives at most this long (less when the message's `Expiration Time` is sooner). */
export const SIWE_SESSION_TTL_SECONDS = 3600;
/** How far in the future `Issued At` may be: the signer's clock may run a little ahead of ours. */
export const SIWE_CLOCK_SKEW_MS = 60_000;
/** Longer messages are refused before parsing (a message is a few hundred bytes; resources add some). */
export const SIWE_MESSAGE_MAX_LENGTH = 8192;

/** 128 random bits as 32 lower-case hex characters: alphanumeric and at least 8 characters (EIP-4361 `nonce`). */
export function generateSiweNonce(): string {
  return randomBytes(16).toString("hex");
}

/** Longer signatures are refused unread (an ERC-6492 wrapper carries factory calldata, still far below this). */
export const SIWE_SIGNATURE_MAX_LENGTH = 32768;

/** 0x-prefixed hex of whole bytes: what viem can verify. Throws SIW-401-001 otherwise. */
export function checkSignatureFormat(signature: string): `0x${string}` {
  if (signature.length > SIWE_SIGNATURE_MAX_LENGTH || !/^0x([0-9a-fA-F]{2})+$/.test(signature))
    throw appError("SIW-401-001", "The signature must be 0x-prefixed hex of whole bytes.");
  return signature as `0x${string}`;
}

/** EIP-4361's `nonce = 8*( ALPHA / DIGIT )`. */
export function isWellFormedNonce(nonce: string): boolean {
  return /^[A-Za-z0-9]{8,}$/.test(nonce);
}

export interface NonceRecord {
  expires_at: Date;
  used_at: Date | null;
}

export type NonceProblem = "unknown" | "expired" | "used";

/** Why a nonce cannot be used now, or null when it can. */
export function nonceProblem(record: NonceRecord | null, now: Date): NonceProblem | null {
  if (!record) return "unknown";
  if (record.used_at !== null) return "used";
  if (record.expires_at.getTime() <= now.getTime()) return "expired";
  return null;
}

const NONCE_DETAILS: Record<NonceProblem, string> = {
  unknown: "The nonce was not issued by this service; request one with POST /v0/auth/siwe/nonce.",
  expired: "The nonce has expired; request a new one with POST /v0/auth/siwe/nonce and sign again.",
  used: "The nonce has already been used; request a new one with POST /v0/auth/siwe/nonce and sign again.",
};

export function nonceError(problem: NonceProblem) {
  return appError("SIW-401-002", NONCE_DETAILS[problem]);
}

export interface MessageRules {
  /** RFC 3986 authority the message must name: the host (and port) of PUBLIC_BASE_URL */
  domain: string;
  /** the scheme of PUBLIC_BASE_URL; a message that names a scheme must name this one */
  scheme: string;
  supportedChainIds: readonly number[];
  now: Date;
  clockSkewMs?: number;
}

/** The fields of an accepted message that the rest of the flow uses. */
export interface AcceptedSiweMessage {
  address: Address;
  chainId: number;
  nonce: string;
  domain: string;
  uri: string;
  issuedAt: Date;
  expirationTime?: Date;
  notBefore?: Date;
}

function rejected(detail: string) {
  return appError("SIW-401-001", detail);
}

function validDate(value: Date | undefined): value is Date {
  return value instanceof Date && !Number.isNaN(value.getTime());
}

/**
 * Parses an EIP-4361 message (viem's `parseSiweMessage`) and applies every rule that needs no
 * signature and no database: the required fields are present and well formed, the domain is
 * ours, the scheme (when given) is ours, version 1, a supported chain, `Issued At` not in the
 * future beyond the clock skew, `Expiration Time` not passed, `Not Before` reached.
 * Throws SIW-401-001 with a detail that names the broken rule.
 */
export function checkSiweMessage(message: string, rules: MessageRules): AcceptedSiweMessage {
  if (message.length > SIWE_MESSAGE_MAX_LENGTH) throw rejected(`The message is longer than ${SIWE_MESSAGE_MAX_LENGTH} characters.`);
  const parsed = parseSiweMessage(message);
  if (!parsed.domain || !parsed.address || !parsed.uri || !parsed.version || parsed.chainId === undefined || !parsed.nonce || !parsed.issuedAt)
    throw rejected("The message is not an EIP-4361 message: it needs the domain line, address, URI, Version, Chain ID, Nonce and Issued At.");
  if (parsed.domain !== rules.domain) throw rejected(`The message is for domain "${parsed.domain}"; this service signs in for "${rules.domain}".`);
  if (parsed.scheme !== undefined && parsed.scheme !== rules.scheme)
    throw rejected(`The message names scheme "${parsed.scheme}"; this service is served over "${rules.scheme}".`);
  if (!isAddress(parsed.address, { strict: true })) throw rejected("The message's address is not a valid EIP-55 address.");
  if (parsed.version !== "1") throw rejected(`Version must be 1, got "${parsed.version}".`);
  if (!isWellFormedNonce(parsed.nonce)) throw rejected("The nonce must be at least 8 letters or digits.");
  if (!isSupportedChain(rules.supportedChainIds, parsed.chainId))
    throw rejected(`Chain ID ${parsed.chainId} is not supported here; supported: ${rules.supportedChainIds.join(", ")}.`);

  const now = rules.now.getTime();
  const skew = rules.clockSkewMs ?? SIWE_CLOCK_SKEW_MS;
  if (!validDate(parsed.issuedAt)) throw rejected("Issued At is not an RFC 3339 date-time.");
  if (parsed.issuedAt.getTime() > now + skew) throw rejected("Issued At is in the future.");
  if (parsed.expirationTime !== undefined) {
    if (!validDate(parsed.expirationTime)) throw rejected("Expiration Time is not an RFC 3339 date-time.");
    if (parsed.expirationTime.getTime() <= now) throw rejected("The message has expired (Expiration Time has passed).");
  }
  if (parsed.notBefore !== undefined) {
    if (!validDate(parsed.notBefore)) throw rejected("Not Before is not an RFC 3339 date-time.");
    if (parsed.notBefore.getTime() > now) throw rejected("The message is not valid yet (Not Before is in the future).");
  }
  return {
    address: getAddress(parsed.address),
    chainId: parsed.chainId,
    nonce: parsed.nonce,
    domain: parsed.domain,
    uri: parsed.uri,
    issuedAt: parsed.issuedAt,
    ...(parsed.expirationTime && { expirationTime: parsed.expirationTime }),
    ...(parsed.notBefore && { notBefore: parsed.notBefore }),
  };
}

/**
 * The session's lifetime in whole seconds from `now`: one hour, or less when the signed message
 * expires sooner (a session never outlives the message that opened it). Zero means no session.
 */
export function sessionLifetimeSeconds(message: Pick<AcceptedSiweMessage, "expirationTime">, now: Date, maxSeconds = SIWE_SESSION_TTL_SECONDS): number {
  if (!message.expirationTime) return maxSeconds;
  return Math.max(0, Math.min(maxSeconds, Math.floor((message.expirationTime.getTime() - now.getTime()) / 1000)));
}
