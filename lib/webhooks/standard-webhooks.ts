import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * The Standard Webhooks scheme (https://www.standardwebhooks.com), which our outgoing events
 * speak: three headers, and each signature is `v1,<base64 HMAC-SHA256>` of `{id}.{timestamp}.{body}`
 * under the key a `whsec_<base64>` secret encodes. Several signatures, space-separated, let a
 * receiver verify with either secret while one is being rotated. Receivers verify with any
 * Standard Webhooks library (the `standardwebhooks` package, Svix's SDKs).
 */
export const SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;
/** How far a delivery's timestamp may be from the receiver's clock, either way (the libraries' default). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface StandardWebhookHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/** A new signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

/** The HMAC key a secret stands for (its base64 part, decoded); a secret that is not `whsec_<base64>` is a programming error. */
function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : "";
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw new Error("a webhook secret is whsec_ followed by base64");
  return Buffer.from(encoded, "base64");
}

function signatureOf(key: Buffer, id: string, timestamp: number, body: string): Buffer {
  return createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
}

/** The headers of one delivery of `body`, signed at `timestamp` (unix seconds) with each of `secrets`, newest first. */
export function signStandardWebhook(id: string, timestamp: number, body: string, secrets: readonly string[]): StandardWebhookHeaders {
  if (secrets.length === 0) throw new Error("a delivery is signed with at least one secret");
  const signatures = secrets.map((secret) => `v1,${signatureOf(keyOf(secret), id, timestamp, body).toString("base64")}`);
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signatures.join(" ") };
}

/**
 * True when the headers carry a timestamp within `toleranceSeconds` of `now` and a v1 signature
 * of exactly this body under `secret` (what a receiver checks; `npm run events:listen` and the
 * tests use it). Constant-time comparison; other versions' signatures are ignored.
 */
export function verifyStandardWebhook(body: string, headers: Partial<Record<keyof StandardWebhookHeaders, string>>, secret: string, now: Date, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS): boolean {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !timestamp || !signatures || !/^[0-9]{1,12}$/.test(timestamp)) return false;
  if (Math.abs(Math.floor(now.getTime() / 1000) - Number(timestamp)) > toleranceSeconds) return false;
  const expected = signatureOf(keyOf(secret), id, Number(timestamp), body);
  let verified = false;
  for (const entry of signatures.split(" ")) {
    const [version, value] = entry.split(",", 2);
    if (version !== "v1" || !value) continue;
    const candidate = Buffer.from(value, "base64");
    if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) verified = true;
  }
  return verified;
}
