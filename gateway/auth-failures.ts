// Failed credential verifications count against the `auth_failure` rule twice: per client
// address, and per presented credential (so one credential tried from many addresses slows
// down too). Once either budget is spent, further attempts are refused with 429 BEFORE any
// verification work (no signature check, JWKS fetch or database lookup): "slow down".
//
// The presented credential is identified by a SHA-256 of the credential headers as sent, never
// by the unverified claims inside them: anyone can write a JWT naming someone else's `iss` and
// `sub`, so keying failures by claims would let an attacker lock a user out with garbage tokens,
// while a hash of the exact credential only ever slows down that credential.
import { createHash } from "node:crypto";
import { CREDENTIAL_HEADERS, firstHeader, type CredentialHeaders } from "../lib/auth/credential-headers.ts";
import type { RateLimits } from "../lib/rate-limit/rate-limits.ts";
import { rateLimitError } from "../lib/rate-limit/rate-limiter.ts";

/** The hash naming the credential headers of a request, or undefined when none was sent. */
export function presentedCredential(headers: CredentialHeaders): string | undefined {
  const parts: string[] = [];
  for (const name of CREDENTIAL_HEADERS) {
    const value = firstHeader(headers, name);
    if (value !== undefined) parts.push(`${name}:${value.trim()}`);
  }
  if (parts.length === 0) return undefined;
  return createHash("sha256").update(parts.join("\n")).digest("base64url").slice(0, 32);
}

/** The two `auth_failure` budgets an attempt spends when it fails. */
export function authFailureKeys(clientAddress: string, credential: string): string[] {
  return [`auth_failure:ip:${clientAddress}`, `auth_failure:credential:${credential}`];
}

/** 429 when either budget is spent already; takes nothing. */
export async function refuseWhileFailing(rateLimits: RateLimits, keys: string[]): Promise<void> {
  for (const key of keys) {
    const decision = await rateLimits.limiter.peek(key, rateLimits.rules.auth_failure);
    if (!decision.allowed) throw rateLimitError(decision, "auth_failure");
  }
}

/** Counts one failed verification against both budgets. */
export async function countFailure(rateLimits: RateLimits, keys: string[]): Promise<void> {
  for (const key of keys) await rateLimits.limiter.consume(key, rateLimits.rules.auth_failure);
}
