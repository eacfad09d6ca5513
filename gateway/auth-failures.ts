// Throttle attacks, not users. Failed credential verifications are counted twice: per presented
// credential (`auth_failure`) and per client address (`auth_failure_address`). The two budgets
// do different things:
// - a credential that keeps failing is refused (429) before any verification work: it will not
//   start verifying, so nobody legitimate waits;
// - an address behind which many clients sit (an office NAT, a carrier, a backend relaying its
//   users' tokens) is never refused as such. Once it has spent its failure budget, a credential
//   from it is still verified and passes when it verifies; only its failing attempts are answered
//   429 instead of 401, and the verifications of credentials not already known good are bounded
//   by a third budget (`auth_verification`), so garbage from one address costs bounded CPU.
// A token whose signature verifies but whose `exp` has passed is the ordinary refresh path
// (spec 5.1.4): a plain 401 that counts against nothing.
//
// The presented credential is identified by a SHA-256 of the credential headers as sent, never
// by the unverified claims inside them: anyone can write a JWT naming someone else's `iss` and
// `sub`, so keying failures by claims would let an attacker lock a user out with garbage tokens,
// while a hash of the exact credential only ever slows down that credential.
import { hash } from "node:crypto";
import { CREDENTIAL_HEADERS, firstHeader, type CredentialHeaders } from "../lib/auth/credential-headers.ts";
import { BoundedMap } from "../lib/bounded-map.ts";
import { recordCredentialVerification } from "../lib/metrics.ts";
import type { RateLimits } from "../lib/rate-limit/rate-limits.ts";
import { rateLimitError, type RateLimitDecision } from "../lib/rate-limit/rate-limiter.ts";

/** The hash naming the credential headers of a request, or undefined when none was sent. */
export function presentedCredential(headers: CredentialHeaders): string | undefined {
  const parts: string[] = [];
  for (const name of CREDENTIAL_HEADERS) {
    const value = firstHeader(headers, name);
    if (value !== undefined) parts.push(`${name}:${value.trim()}`);
  }
  if (parts.length === 0) return undefined;
  return hash("sha256", parts.join("\n"), "base64url").slice(0, 32);
}

/** Whether presentedCredential names something, without hashing it. */
export function presentsCredential(headers: CredentialHeaders): boolean {
  return CREDENTIAL_HEADERS.some((name) => firstHeader(headers, name) !== undefined);
}

/** How a verification attempt ended, for the budgets. */
export type VerificationOutcome = "verified" | "expired" | "failed";

/** A credential that verified lately passes an address's budgets without spending them, for this long at most. */
export const KNOWN_GOOD_MS = 5 * 60_000;

/**
 * The failure budgets of one request: what may be tried before verifying, and what a failure
 * costs afterwards. One per request, from `AuthFailureBudgets.begin`.
 */
export interface VerificationAttempt {
  /** counts the outcome; a failure once the address is over budget becomes the 429 to throw instead of the 401 */
  settle(outcome: VerificationOutcome): Promise<Error | undefined>;
}

export class AuthFailureBudgets {
  /** credential hash → until when it passes an over-budget address without spending its verification budget */
  private readonly knownGood = new BoundedMap<string, number>(10_000);

  constructor(
    private readonly rateLimits: RateLimits,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Refuses (429) a credential that spent its own failure budget, and a credential not known good
   * from an address over its failure budget once that address's verifications are spent too;
   * otherwise the attempt to settle after verifying.
   */
  async begin(clientAddress: string, credential: string): Promise<VerificationAttempt> {
    const { limiter, rules } = this.rateLimits;
    const credentialKey = `auth_failure:credential:${credential}`;
    const addressKey = `auth_failure:ip:${clientAddress}`;
    const ownBudget = await limiter.peek(credentialKey, rules.auth_failure);
    if (!ownBudget.allowed) throw rateLimitError(ownBudget, "auth_failure");
    const addressBudget = await limiter.peek(addressKey, rules.auth_failure_address);
    const suspect = !addressBudget.allowed;
    if (suspect && !this.isKnownGood(credential)) {
      const verification = await limiter.consume(`auth_verification:ip:${clientAddress}`, rules.auth_verification);
      if (!verification.allowed) throw rateLimitError(verification, "auth_verification");
    }
    return { settle: (outcome) => this.settle(outcome, credential, [credentialKey, addressKey], suspect ? addressBudget : undefined) };
  }

  private async settle(outcome: VerificationOutcome, credential: string, keys: [string, string], overBudget: RateLimitDecision | undefined): Promise<Error | undefined> {
    recordCredentialVerification(outcome);
    if (outcome === "verified") {
      this.knownGood.set(credential, this.clock() + KNOWN_GOOD_MS);
      return undefined;
    }
    if (outcome === "expired") return undefined;
    const { limiter, rules } = this.rateLimits;
    await limiter.consume(keys[0], rules.auth_failure);
    await limiter.consume(keys[1], rules.auth_failure_address);
    return overBudget ? rateLimitError(overBudget, "auth_failure_address") : undefined;
  }

  private isKnownGood(credential: string): boolean {
    const until = this.knownGood.get(credential);
    if (until === undefined) return false;
    if (this.clock() < until) return true;
    this.knownGood.delete(credential);
    return false;
  }
}
