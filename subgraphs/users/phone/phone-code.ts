import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { validationError } from "../../../lib/errors/app-error.ts";

/**
 * The rules of SMS phone verification, as pure functions: code format, hashing, expiry,
 * attempt and rate limits. Domain functions (start / confirm) apply them to rows.
 */
export const PHONE_CODE_LENGTH = 6;
/** A code works for ten minutes after it is sent. */
export const PHONE_CODE_TTL_MS = 10 * 60_000;
/** Wrong guesses allowed per code; after that the code is dead (410) and a new one is needed. */
export const PHONE_CODE_MAX_ATTEMPTS = 5;
/** Codes a user may request per rolling hour (each is an SMS we pay for). */
export const PHONE_CODES_PER_WINDOW = 5;
export const PHONE_CODE_WINDOW_MS = 60 * 60_000;

// E.164: "+", a country code not starting with 0, at most 15 digits in all.
const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * The number in E.164 form. Spaces, hyphens, dots and parentheses people type are dropped;
 * anything else that is not E.164 (no leading +, letters, too short or long) is a 422.
 */
export function normalisePhoneNumber(input: string, loc: (string | number)[] = ["phone_number"]): string {
  const compact = input.trim().replace(/[\s().-]/g, "");
  if (!E164.test(compact)) throw validationError(loc, "Value error, expected an E.164 phone number such as +14155550123", input);
  return compact;
}

export function isWellFormedCode(code: string): boolean {
  return code.length === PHONE_CODE_LENGTH && /^\d+$/.test(code);
}

/** Six decimal digits from the CSPRNG, leading zeros kept. */
export function generatePhoneCode(): string {
  return randomInt(0, 10 ** PHONE_CODE_LENGTH).toString().padStart(PHONE_CODE_LENGTH, "0");
}

/**
 * HMAC-SHA256 under the deployment's phone-code key, bound to the verification row: the same code
 * on another row hashes differently, and without the key (kept out of the database) a leaked
 * table does not let anyone try the million codes offline.
 */
export function hashPhoneCode(key: Uint8Array, verificationId: string, code: string): string {
  return createHmac("sha256", key).update(`phone-verification:${verificationId}:${code}`).digest("hex");
}

/** Constant-time comparison of a candidate code with the stored hash. */
export function phoneCodeMatches(key: Uint8Array, verificationId: string, code: string, storedHash: string): boolean {
  const candidate = Buffer.from(hashPhoneCode(key, verificationId, code), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return candidate.length === stored.length && timingSafeEqual(candidate, stored);
}

export interface PhoneVerificationRow {
  attempts: number;
  expires_at: Date;
  verified_at: Date | null;
}

export type PhoneVerificationState = "verified" | "expired" | "exhausted" | "pending";

/** Where a code stands at `now`: verified wins, then expiry, then used-up attempts. */
export function phoneVerificationState(row: PhoneVerificationRow, now: Date): PhoneVerificationState {
  if (row.verified_at) return "verified";
  if (row.expires_at.getTime() <= now.getTime()) return "expired";
  if (row.attempts >= PHONE_CODE_MAX_ATTEMPTS) return "exhausted";
  return "pending";
}

export function attemptsRemaining(attempts: number): number {
  return Math.max(0, PHONE_CODE_MAX_ATTEMPTS - attempts);
}

/**
 * Whether another code may be sent, given when this user's recent codes were sent. When not,
 * `retry_after_seconds` is when the oldest code in the window leaves it.
 */
export function codeRateLimit(sentAt: readonly Date[], now: Date): { allowed: true } | { allowed: false; retry_after_seconds: number } {
  const windowStart = now.getTime() - PHONE_CODE_WINDOW_MS;
  const inWindow = sentAt.map((d) => d.getTime()).filter((t) => t > windowStart).sort((a, b) => a - b);
  if (inWindow.length < PHONE_CODES_PER_WINDOW) return { allowed: true };
  const frees = inWindow[inWindow.length - PHONE_CODES_PER_WINDOW]! + PHONE_CODE_WINDOW_MS;
  return { allowed: false, retry_after_seconds: Math.max(1, Math.ceil((frees - now.getTime()) / 1000)) };
}

export function verificationSms(code: string): string {
  return `Your verification code is ${code}. It expires in ${PHONE_CODE_TTL_MS / 60_000} minutes. Never share it.`;
}
