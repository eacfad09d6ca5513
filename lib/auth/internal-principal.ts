import { createHmac, timingSafeEqual } from "node:crypto";
import type { Principal } from "./principal.ts";

/** Header carrying the gateway's principal to subgraphs over HTTP. */
export const PRINCIPAL_HEADER = "x-internal-principal";

/** A signed principal is good for this long: enough for one request, useless to replay later. */
const MAX_AGE_MS = 60_000;

interface SignedPrincipal {
  principal: Principal;
  issued_at: number;
}

function mac(secret: string, payload: string): Buffer {
  return createHmac("sha256", secret).update(payload).digest();
}

/** `base64url(json).base64url(hmac)`: subgraphs reached directly cannot forge a principal. */
export function signPrincipal(principal: Principal, secret: string, now = Date.now()): string {
  const payload = Buffer.from(JSON.stringify({ principal, issued_at: now } satisfies SignedPrincipal)).toString("base64url");
  return `${payload}.${mac(secret, payload).toString("base64url")}`;
}

/** The principal, or undefined when the header is absent, tampered with or stale. */
export function verifyPrincipal(header: string | undefined, secret: string, now = Date.now()): Principal | undefined {
  if (!header) return undefined;
  const [payload, signature, extra] = header.split(".");
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = mac(secret, payload);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const { principal, issued_at } = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as SignedPrincipal;
    if (typeof issued_at !== "number" || Math.abs(now - issued_at) > MAX_AGE_MS) return undefined;
    return principal;
  } catch {
    return undefined;
  }
}
