import { decodeJwt } from "jose";
import type { SigningKey } from "../../../lib/auth/signing-key.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { UsersTx } from "../db.ts";
import { consumeSiweNonce, issueSiweNonce, siweNonceProblem } from "./siwe-nonces.ts";
import { checkSignatureFormat, checkSiweMessage, nonceError, sessionLifetimeSeconds, SIWE_NONCE_TTL_MS, SIWE_SESSION_TTL_SECONDS } from "./siwe-rules.ts";
import { verifySiweSignature, type SignatureCheck } from "./siwe-signature.ts";

/**
 * Sign-in with Ethereum as a platform issuer: a nonce from `startSiweSignIn`, a signed EIP-4361
 * message to `completeSiweSignIn`, a JWT signed with the platform key in return. The JWT's `iss`
 * is the `siwe` provider's issuer from AUTH_PROVIDERS and its `sub` the checksummed address, so
 * the gateway accepts it as `x-platform-jwt` like any provider's token.
 */

/** What the `siwe` entry of AUTH_PROVIDERS and PUBLIC_BASE_URL make of the deployment; absent: SIWE is off. */
export interface SiweSettings {
  /** host[:port] of PUBLIC_BASE_URL: the only domain a message may name */
  domain: string;
  /** `iss` of the tokens issued */
  issuer: string;
  /** `aud` of the tokens issued, when the provider entry configures one */
  audience?: string | string[];
  /** PUBLIC_BASE_URL: suggested as the message's URI, its scheme the only one accepted */
  baseUrl: string;
}

export type Clock = () => Date;
const systemClock: Clock = () => new Date();

function settingsOrUnavailable(settings: SiweSettings | undefined): SiweSettings {
  if (!settings) throw appError("SIW-503-001", "Sign-in with Ethereum is not enabled on this deployment (no siwe entry in AUTH_PROVIDERS).");
  return settings;
}

function schemeOf(baseUrl: string): string {
  return new URL(baseUrl).protocol.replace(/:$/, "");
}

export interface StartSiweOptions {
  siwe: SiweSettings | undefined;
  supportedChainIds: readonly number[];
  clock?: Clock;
  nonceTtlMs?: number;
}

export interface SiweChallenge {
  nonce: string;
  expires_at: Date;
  domain: string;
  uri: string;
  scheme: string;
  version: string;
  chain_ids: number[];
  statement: string;
}

/** A fresh nonce (stored, valid for 10 minutes, single use) and the values the message should carry. */
export async function startSiweSignIn(db: UsersTx, options: StartSiweOptions): Promise<SiweChallenge> {
  const siwe = settingsOrUnavailable(options.siwe);
  const { nonce, expires_at } = await issueSiweNonce(db, { now: (options.clock ?? systemClock)(), ttlMs: options.nonceTtlMs ?? SIWE_NONCE_TTL_MS });
  return {
    nonce,
    expires_at,
    domain: siwe.domain,
    uri: siwe.baseUrl,
    scheme: schemeOf(siwe.baseUrl),
    version: "1",
    chain_ids: [...options.supportedChainIds],
    statement: `Sign in with Ethereum to ${siwe.domain}.`,
  };
}

export interface CompleteSiweOptions {
  siwe: SiweSettings | undefined;
  message: string;
  signature: string;
  supportedChainIds: readonly number[];
  chainRpcUrls: Readonly<Record<number, string>>;
  signingKey: Pick<SigningKey, "sign">;
  clock?: Clock;
  sessionTtlSeconds?: number;
  rpcTimeoutMs?: number;
  /** tests replace the signature check; default: ECDSA, then ERC-1271 / ERC-6492 over the chain's RPC */
  verifySignature?: (check: SignatureCheck) => Promise<void>;
}

export interface SiweSession {
  token: string;
  token_type: "JWT";
  expires_at: Date;
  address: string;
  chain_id: number;
  issuer: string;
}

/**
 * Checks, in order: the message's own rules (domain, scheme, version, chain, time bounds), the
 * nonce (known, unexpired, unused), the signature; then consumes the nonce in one conditional
 * UPDATE and signs the session token. The nonce is consumed only once the signature is valid, so
 * a request that fails for a transient reason (CHN-502-001) can be retried with the same signed
 * message, and of concurrent requests with one valid message exactly one gets a token.
 */
export async function completeSiweSignIn(db: UsersTx, options: CompleteSiweOptions): Promise<SiweSession> {
  const siwe = settingsOrUnavailable(options.siwe);
  const clock = options.clock ?? systemClock;
  const now = clock();
  const message = checkSiweMessage(options.message, { domain: siwe.domain, scheme: schemeOf(siwe.baseUrl), supportedChainIds: options.supportedChainIds, now });
  const signature = checkSignatureFormat(options.signature);

  const problem = await siweNonceProblem(db, message.nonce, now);
  if (problem) throw nonceError(problem);

  await (options.verifySignature ?? verifySiweSignature)({
    message: options.message,
    signature,
    address: message.address,
    chainId: message.chainId,
    now,
    ...(options.chainRpcUrls[message.chainId] !== undefined && { rpcUrl: options.chainRpcUrls[message.chainId] }),
    ...(options.rpcTimeoutMs !== undefined && { rpcTimeoutMs: options.rpcTimeoutMs }),
  });

  const consumedAt = clock();
  if (!(await consumeSiweNonce(db, message.nonce, consumedAt))) throw nonceError((await siweNonceProblem(db, message.nonce, consumedAt)) ?? "used");

  const lifetime = sessionLifetimeSeconds(message, consumedAt, options.sessionTtlSeconds ?? SIWE_SESSION_TTL_SECONDS);
  if (lifetime <= 0) throw appError("SIW-401-001", "The message expires too soon to open a session.");
  // both instants from the same clock reading the lifetime came from, so exp never passes the
  // message's Expiration Time even when the wall clock ticks into the next second meanwhile
  const issuedAt = Math.floor(consumedAt.getTime() / 1000);
  const token = await options.signingKey.sign(
    { chain_id: message.chainId },
    { issuer: siwe.issuer, subject: message.address, issuedAt, expiresAt: issuedAt + lifetime, ...(siwe.audience !== undefined && { audience: siwe.audience }) },
  );
  return {
    token,
    token_type: "JWT",
    expires_at: new Date(decodeJwt(token).exp! * 1000),
    address: message.address,
    chain_id: message.chainId,
    issuer: siwe.issuer,
  };
}
