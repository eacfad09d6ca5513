import { createHmac, timingSafeEqual } from "node:crypto";
import { AppError } from "../../lib/errors/app-error.ts";
import type { WebhookHeaders } from "./webhooks.ts";

/** Spec 5.3 / 8: a timestamp further than this from server time, either way, is refused. */
export const WALLET_CLAIM_TOLERANCE_SECONDS = 300;

export type Hmac = (key: Buffer, content: Buffer) => Buffer;

const hmacSha256: Hmac = (key, content) => createHmac("sha256", key).update(content).digest();

function header(headers: WebhookHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? undefined : value;
}

/** Always the catalogue's fixed detail: nothing the sender supplied is echoed. */
function rejected(): AppError {
  return new AppError("WHK-401-001");
}

/** `whsec_<base64>` → the HMAC key bytes. */
export function decodeWebhookSecret(secret: string): Buffer {
  return Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
}

/** `v1,` + base64(HMAC-SHA256(key, `{timestamp}.{body}`)): what the provider puts in webhook-signature. */
export function signWalletClaim(secret: string, timestamp: string, body: string | Buffer): string {
  return `v1,${hmacSha256(decodeWebhookSecret(secret), Buffer.concat([Buffer.from(`${timestamp}.`), Buffer.from(body)])).toString("base64")}`;
}

/**
 * The wallet-claimed signature check (spec 5.3). Unlike Standard Webhooks (`{id}.{timestamp}.{body}`)
 * the signed string is `{webhook-timestamp}.{raw body}`. In this order:
 * 1. webhook-timestamp must be Unix seconds within ±300 s of `now` (300 exactly passes); otherwise
 *    the delivery is refused before any HMAC is computed;
 * 2. webhook-signature holds space-separated values; each `v1,<base64>` one is compared in
 *    constant time with the HMAC under every configured secret (rotation): any match passes;
 * webhook-id is not part of the signed string, so it is not looked at here: the receiver compares
 * it, when sent, with the envelope id once the body is parsed. Every refusal is 401 WHK-401-001 with the same fixed detail. No secrets: every delivery fails.
 * `hmac` is injectable so tests can prove which inputs never reach it.
 */
export function walletClaimVerifier(secrets: readonly string[], hmac: Hmac = hmacSha256) {
  const keys = secrets.map(decodeWebhookSecret);
  return (raw: Buffer, headers: WebhookHeaders, now: Date): void => {
    const timestamp = header(headers, "webhook-timestamp");
    if (timestamp === undefined || !/^[0-9]{1,12}$/.test(timestamp)) throw rejected();
    const nowSeconds = Math.floor(now.getTime() / 1000);
    if (Math.abs(nowSeconds - Number(timestamp)) > WALLET_CLAIM_TOLERANCE_SECONDS) throw rejected();

    const signature = header(headers, "webhook-signature");
    if (!signature || keys.length === 0) throw rejected();
    const candidates = signature
      .split(" ")
      .filter((value) => value.startsWith("v1,"))
      .map((value) => Buffer.from(value.slice(3), "utf8"));
    if (candidates.length === 0) throw rejected();

    // the raw bytes as received: never re-serialised JSON
    const content = Buffer.concat([Buffer.from(`${timestamp}.`), raw]);
    let verified = false;
    for (const key of keys) {
      const expected = Buffer.from(hmac(key, content).toString("base64"), "utf8");
      for (const candidate of candidates) {
        // lengths are public (a base64 SHA-256 is always 44 characters); contents compare in constant time
        if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) verified = true;
      }
    }
    if (!verified) throw rejected();
  };
}
