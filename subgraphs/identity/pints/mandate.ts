import { isRecord } from "../../../lib/parse.ts";
import { getAddress, hashTypedData, isAddress, isHex, type Address, type Hex } from "viem";
import { isSupportedChain } from "../../../lib/chains.ts";
import { isPintScope, PINT_SCOPE_NAMES, type PintScope } from "../../../lib/auth/pint-scopes.ts";
import { appError } from "../../../lib/errors/app-error.ts";

/**
 * A PINT mandate: an EIP-712 typed-data message by which a user's wallet grants a third party
 * (the `audience`) some `scopes` until `expiresAt`. `nonce` makes each mandate of a wallet
 * single-use. The domain binds it to this deployment (`salt`, so a mandate signed for one
 * deployment is useless at another) and to the wallet's chain.
 *
 *   domain:  { name: "PINT", version: "1", chainId: <the wallet's chain>, salt: <the deployment's> }
 *   Mandate(address wallet,address signer,string audience,string[] scopes,uint256 nonce,uint64 expiresAt)
 */
export const PINT_EIP712_DOMAIN_NAME = "PINT";
export const PINT_EIP712_DOMAIN_VERSION = "1";

export const PINT_EIP712_TYPES = {
  Mandate: [
    { name: "wallet", type: "address" },
    { name: "signer", type: "address" },
    { name: "audience", type: "string" },
    { name: "scopes", type: "string[]" },
    { name: "nonce", type: "uint256" },
    { name: "expiresAt", type: "uint64" },
  ],
} as const;

export const PINT_PRIMARY_TYPE = "Mandate";

/** A Safe signs EIP-712 `SafeMessage(bytes message)` over the mandate's digest, in its own domain. */
export const SAFE_MESSAGE_TYPES = { SafeMessage: [{ name: "message", type: "bytes" }] } as const;

export interface Mandate {
  wallet: Address;
  signer: Address;
  audience: string;
  scopes: PintScope[];
  nonce: bigint;
  /** Unix seconds */
  expiresAt: bigint;
}

export interface ExchangeRequest {
  chain_id: number;
  mandate: Mandate;
  signature: Hex;
}

/** `expiresAt` may lie at most this far ahead: a mandate is a short-lived grant, not a standing one. */
export const MAX_MANDATE_LIFETIME_SECONDS = 90 * 24 * 3600;
/** A third-party identifier as an organisation registers it. */
export const IDENTIFIER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/-]{2,199}$/;
/** A mandate's audience: a registered `<org_id>:<identifier>`, so longer than an identifier. */
export const AUDIENCE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:/-]{2,299}$/;
const MAX_SCOPES = 16;
const MAX_SIGNATURE_BYTES = 4096;
const UINT256_MAX = (1n << 256n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;
const MANDATE_FIELDS = PINT_EIP712_TYPES.Mandate.map((f) => f.name) as readonly string[];
const REQUEST_FIELDS = ["chain_id", "mandate", "signature"];

/** `salt`: this deployment's (`PINT_DOMAIN_SALT`, by default keccak256 of {sis_url}: lib/config.ts), 32 bytes. */
export function mandateDomain(chainId: number, salt: Hex) {
  return { name: PINT_EIP712_DOMAIN_NAME, version: PINT_EIP712_DOMAIN_VERSION, chainId, salt } as const;
}

/** What viem's `signTypedData` / `hashTypedData` take for this mandate. */
export function mandateTypedData(chainId: number, mandate: Mandate, salt: Hex) {
  return { domain: mandateDomain(chainId, salt), types: PINT_EIP712_TYPES, primaryType: PINT_PRIMARY_TYPE, message: mandate } as const;
}

/** The EIP-712 digest the signer signs (and a Safe's `isValidSignature` is asked about). */
export function mandateDigest(chainId: number, mandate: Mandate, salt: Hex): Hex {
  return hashTypedData(mandateTypedData(chainId, mandate, salt));
}

/** The hash a Safe's owners sign for `digest`: EIP-712 `SafeMessage(bytes message)` in the Safe's domain `{chainId, verifyingContract}`. */
export function safeMessageHash(chainId: number, safe: Address, digest: Hex): Hex {
  return hashTypedData({ domain: { chainId, verifyingContract: safe }, types: SAFE_MESSAGE_TYPES, primaryType: "SafeMessage", message: { message: digest } });
}

/** An unsigned integer as JSON: a non-negative safe integer, or a string of decimal digits. */
function unsignedInteger(value: unknown, max: bigint): bigint | undefined {
  let parsed: bigint | undefined;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) parsed = BigInt(value);
  else if (typeof value === "string" && /^\d{1,78}$/.test(value)) parsed = BigInt(value);
  return parsed !== undefined && parsed <= max ? parsed : undefined;
}

/**
 * The exchange body, checked field by field; anything missing, unknown or malformed is one
 * PINT-400-001 whose detail names every problem. Addresses come back checksummed, the nonce
 * and expiry as bigints, so equal mandates hash equally however they were written.
 */
export function parseExchangeRequest(input: unknown, options: { supportedChainIds: readonly number[]; now: Date }): ExchangeRequest {
  const problems: string[] = [];
  if (!isRecord(input)) throw appError("PINT-400-001", "The body must be a JSON object {chain_id, mandate, signature}.");
  for (const name of Object.keys(input)) if (!REQUEST_FIELDS.includes(name)) problems.push(`${name}: unknown field`);

  const chainId = input.chain_id;
  if (chainId === undefined) problems.push("chain_id: missing");
  else if (typeof chainId !== "number" || !Number.isSafeInteger(chainId) || chainId < 1) problems.push("chain_id: expected a positive integer (the EIP-712 domain's chainId)");
  else if (!isSupportedChain(options.supportedChainIds, chainId)) problems.push(`chain_id: ${chainId} is not a supported chain`);

  const signature = input.signature;
  if (signature === undefined) problems.push("signature: missing");
  else if (typeof signature !== "string" || !isHex(signature, { strict: true }) || signature.length % 2 !== 0 || signature.length < 2 + 130 || signature.length > 2 + 2 * MAX_SIGNATURE_BYTES)
    problems.push("signature: expected 0x-hex bytes, at least 65 (a 65-byte ECDSA signature, or a Safe's concatenated owner signatures)");

  const raw = input.mandate;
  const mandate: Partial<Mandate> = {};
  if (raw === undefined) problems.push("mandate: missing");
  else if (!isRecord(raw)) problems.push("mandate: expected an object {wallet, signer, audience, scopes, nonce, expiresAt}");
  else {
    for (const name of Object.keys(raw)) if (!MANDATE_FIELDS.includes(name)) problems.push(`mandate.${name}: unknown field (it is not part of the signed Mandate type)`);
    for (const name of ["wallet", "signer"] as const) {
      const value = raw[name];
      if (value === undefined) problems.push(`mandate.${name}: missing`);
      else if (typeof value !== "string" || !isAddress(value, { strict: true })) problems.push(`mandate.${name}: expected a 20-byte hex address (EIP-55 checksum when mixed case)`);
      else mandate[name] = getAddress(value);
    }
    const audience = raw.audience;
    if (audience === undefined) problems.push("mandate.audience: missing");
    else if (typeof audience !== "string" || !AUDIENCE_PATTERN.test(audience)) problems.push("mandate.audience: expected a registered audience <org_id>:<identifier> (3-300 characters: letters, digits, . _ : / -)");
    else mandate.audience = audience;

    const scopes = raw.scopes;
    if (scopes === undefined) problems.push("mandate.scopes: missing");
    else if (!Array.isArray(scopes) || scopes.length === 0 || scopes.length > MAX_SCOPES) problems.push(`mandate.scopes: expected 1 to ${MAX_SCOPES} scopes`);
    else {
      const unknown = scopes.filter((s) => !isPintScope(s));
      if (unknown.length) problems.push(`mandate.scopes: unknown scopes ${unknown.map((s) => JSON.stringify(s)).join(", ")} (known: ${PINT_SCOPE_NAMES.join(", ")})`);
      else if (new Set(scopes).size !== scopes.length) problems.push("mandate.scopes: duplicate scopes");
      else mandate.scopes = scopes as PintScope[];
    }

    const nonce = raw.nonce;
    if (nonce === undefined) problems.push("mandate.nonce: missing");
    else {
      const parsed = unsignedInteger(nonce, UINT256_MAX);
      if (parsed === undefined) problems.push("mandate.nonce: expected a uint256 (a decimal string, or a non-negative safe integer)");
      else mandate.nonce = parsed;
    }

    const expiresAt = raw.expiresAt;
    if (expiresAt === undefined) problems.push("mandate.expiresAt: missing");
    else {
      const parsed = unsignedInteger(expiresAt, UINT64_MAX);
      if (parsed === undefined) problems.push("mandate.expiresAt: expected Unix seconds (a uint64)");
      else if (parsed > BigInt(Math.floor(options.now.getTime() / 1000) + MAX_MANDATE_LIFETIME_SECONDS))
        problems.push(`mandate.expiresAt: at most ${MAX_MANDATE_LIFETIME_SECONDS / 86400} days ahead`);
      else mandate.expiresAt = parsed;
    }
  }
  if (problems.length > 0) throw appError("PINT-400-001", `The mandate is malformed: ${problems.join("; ")}.`);
  return { chain_id: chainId as number, mandate: mandate as Mandate, signature: signature as Hex };
}
