import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/**
 * The KYC provider's webhook signature, modelled on the leading provider's scheme (Sumsub):
 * `x-payload-digest` is the lowercase hex HMAC of the raw request body keyed with the shared
 * secret (KYC_WEBHOOK_SECRET, used as UTF-8 bytes), `x-payload-digest-alg` names the hash.
 *
 * Accepted algorithms: HMAC_SHA256_HEX and HMAC_SHA512_HEX. Everything else is refused,
 * including the provider's legacy HMAC_SHA1_HEX: SHA-1 is deprecated and the provider lets the
 * webhook's algorithm be chosen, so configure SHA-256 or SHA-512 there.
 */
export const KYC_DIGEST_ALGORITHMS = { HMAC_SHA256_HEX: "sha256", HMAC_SHA512_HEX: "sha512" } as const;
export type KycDigestAlgorithm = keyof typeof KYC_DIGEST_ALGORITHMS;

export const KYC_DIGEST_HEADER = "x-payload-digest";
export const KYC_DIGEST_ALG_HEADER = "x-payload-digest-alg";

/** The hex digest a provider sends for `raw`. */
export function signKycPayload(raw: Buffer | string, secret: string, algorithm: KycDigestAlgorithm = "HMAC_SHA256_HEX"): string {
  return createHmac(KYC_DIGEST_ALGORITHMS[algorithm], secret).update(raw).digest("hex");
}

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * True when the delivery carries a valid digest of exactly these bytes. False without a secret
 * (nothing can be verified, so nothing is accepted), with a missing, repeated or non-hex header,
 * an algorithm other than the two above, or a digest that does not match. The comparison is
 * constant-time over the digest bytes (their length is public: it follows from the algorithm).
 */
export function verifyKycPayloadDigest(raw: Buffer, headers: Record<string, string | string[] | undefined>, secret: string | undefined): boolean {
  if (!secret) return false;
  const algorithm = single(headers[KYC_DIGEST_ALG_HEADER]);
  const supplied = single(headers[KYC_DIGEST_HEADER]);
  if (algorithm === undefined || supplied === undefined) return false;
  if (!Object.hasOwn(KYC_DIGEST_ALGORITHMS, algorithm)) return false;
  const expected = createHmac(KYC_DIGEST_ALGORITHMS[algorithm as KycDigestAlgorithm], secret).update(raw).digest();
  if (!/^[0-9a-fA-F]*$/.test(supplied) || supplied.length !== expected.length * 2) return false;
  return timingSafeEqual(Buffer.from(supplied, "hex"), expected);
}

/**
 * The provider sends no event id, and its retries resend the same body. The de-duplication key
 * is therefore a digest of the verified body: `kyc_` + SHA-256 hex of its JSON (re-serialised
 * after parsing, so whitespace does not matter). Two deliveries with the same content are one
 * event; the provider's `correlationId` and `createdAtMs` are part of the body, so two distinct
 * decisions about one applicant never collide.
 */
export function kycEventId(envelope: unknown): string {
  return `kyc_${createHash("sha256").update(JSON.stringify(envelope)).digest("hex")}`;
}
