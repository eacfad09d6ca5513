import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The banking provider's webhook signature (ours to design: spec 5.3.5 shows none), in the shape
 * the big providers ship (Stripe's): one header
 *
 *     platform-banking-signature: t=<unix seconds>,v1=<hex HMAC-SHA256>[,v1=<hex>…]
 *
 * where each v1 is HMAC-SHA256(secret, `{t}.{raw body}`) under one secret of
 * BANKING_WEBHOOK_SECRET (comma-separated: during a rotation the provider signs with both, and
 * any v1 matching any configured secret passes). The timestamp is signed, so a captured delivery
 * cannot be replayed outside the tolerance; inside it, the event id makes a replay a no-op.
 */
export const BANKING_SIGNATURE_HEADER = "platform-banking-signature";
export const DEFAULT_BANKING_WEBHOOK_TOLERANCE_SECONDS = 300;

export function bankingSignatureValue(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex");
}

/** The header a provider sends for `body`, signed at `timestamp` with each of `secrets`. */
export function signBankingPayload(body: string | Buffer, secrets: readonly string[], timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${bankingSignatureValue(secret, timestamp, body)}`)].join(",");
}

/**
 * True when `header` carries a fresh timestamp (within `toleranceSeconds` of `now`, either way;
 * exactly the tolerance passes) and a v1 signature of exactly these bytes under one of `secrets`.
 * Without secrets nothing verifies. Staleness is decided before any HMAC is computed; the
 * comparison is constant-time (a hex SHA-256 is always 64 characters).
 */
export function verifyBankingSignature(raw: Buffer, header: string | string[] | undefined, secrets: readonly string[], now: Date, toleranceSeconds: number): boolean {
  if (typeof header !== "string" || secrets.length === 0) return false;
  let timestamp: string | undefined;
  const candidates: Buffer[] = [];
  for (const part of header.split(",")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === "t" && timestamp === undefined) timestamp = value;
    else if (key === "v1" && value && /^[0-9a-f]{64}$/.test(value)) candidates.push(Buffer.from(value, "hex"));
  }
  if (timestamp === undefined || !/^[0-9]{1,12}$/.test(timestamp) || candidates.length === 0) return false;
  if (Math.abs(Math.floor(now.getTime() / 1000) - Number(timestamp)) > toleranceSeconds) return false;
  let verified = false;
  for (const secret of secrets) {
    const expected = createHmac("sha256", secret).update(`${timestamp}.`).update(raw).digest();
    for (const candidate of candidates) if (timingSafeEqual(candidate, expected)) verified = true;
  }
  return verified;
}
