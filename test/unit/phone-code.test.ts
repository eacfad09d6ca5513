import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import {
  PHONE_CODE_MAX_ATTEMPTS,
  PHONE_CODE_TTL_MS,
  attemptsRemaining,
  codeRateLimit,
  generatePhoneCode,
  hashPhoneCode,
  isWellFormedCode,
  normalisePhoneNumber,
  phoneCodeMatches,
  phoneVerificationState,
} from "../../subgraphs/users/phone/phone-code.ts";
import { derivePhoneCodeKey } from "../../subgraphs/users/phone/phone-code-key.ts";

const KEY = new Uint8Array(32).fill(7);
const T0 = new Date("2030-01-01T00:00:00Z");
const at = (ms: number) => new Date(T0.getTime() + ms);

describe("phone numbers", () => {
  it("accepts E.164, dropping the separators people type", () => {
    expect(normalisePhoneNumber("+14155550123")).toBe("+14155550123");
    expect(normalisePhoneNumber(" +44 (20) 7946-0958 ")).toBe("+442079460958");
    expect(normalisePhoneNumber("+49.151.1234567")).toBe("+491511234567");
  });

  it("refuses anything else with a 422 on body.phone_number", () => {
    for (const bad of ["14155550123", "+0155550123", "+123456", "+1234567890123456", "+1 415 CALL NOW", "", "++14155550123"]) {
      const error = (() => {
        try {
          normalisePhoneNumber(bad);
        } catch (e) {
          return e as AppError;
        }
        throw new Error(`${bad} was accepted`);
      })();
      expect(error.status).toBe(422);
      expect(error.validation![0]).toMatchObject({ loc: ["phone_number"], input: bad });
    }
  });
});

describe("codes", () => {
  it("are six digits, leading zeros kept", () => {
    for (let i = 0; i < 200; i++) expect(generatePhoneCode()).toMatch(/^\d{6}$/);
    expect(isWellFormedCode("012345")).toBe(true);
    for (const bad of ["12345", "1234567", "12a456", " 12345", "１２３４５６"]) expect(isWellFormedCode(bad)).toBe(false);
  });

  it("are stored as HMAC-SHA256 bound to the verification id", () => {
    const hash = hashPhoneCode(KEY, "phv_1", "123456");
    expect(hash).toBe(createHmac("sha256", KEY).update("phone-verification:phv_1:123456").digest("hex"));
    expect(hashPhoneCode(KEY, "phv_2", "123456")).not.toBe(hash);
    expect(hashPhoneCode(new Uint8Array(32).fill(8), "phv_1", "123456")).not.toBe(hash);
  });

  it("match only the right code, row and key", () => {
    const stored = hashPhoneCode(KEY, "phv_1", "123456");
    expect(phoneCodeMatches(KEY, "phv_1", "123456", stored)).toBe(true);
    expect(phoneCodeMatches(KEY, "phv_1", "123457", stored)).toBe(false);
    expect(phoneCodeMatches(KEY, "phv_2", "123456", stored)).toBe(false);
    expect(phoneCodeMatches(new Uint8Array(32), "phv_1", "123456", stored)).toBe(false);
    expect(phoneCodeMatches(KEY, "phv_1", "123456", stored.slice(0, 10))).toBe(false);
  });
});

describe("expiry and attempts", () => {
  const row = (change: Partial<{ attempts: number; expires_at: Date; verified_at: Date | null }> = {}) => ({
    attempts: 0,
    expires_at: at(PHONE_CODE_TTL_MS),
    verified_at: null,
    ...change,
  });

  it("a code is pending until ten minutes have passed, expired from then on", () => {
    expect(PHONE_CODE_TTL_MS).toBe(600_000);
    expect(phoneVerificationState(row(), at(PHONE_CODE_TTL_MS - 1))).toBe("pending");
    expect(phoneVerificationState(row(), at(PHONE_CODE_TTL_MS))).toBe("expired");
  });

  it("five wrong attempts exhaust it", () => {
    expect(PHONE_CODE_MAX_ATTEMPTS).toBe(5);
    expect(phoneVerificationState(row({ attempts: 4 }), T0)).toBe("pending");
    expect(phoneVerificationState(row({ attempts: 5 }), T0)).toBe("exhausted");
    expect(attemptsRemaining(0)).toBe(5);
    expect(attemptsRemaining(4)).toBe(1);
    expect(attemptsRemaining(7)).toBe(0);
  });

  it("verified wins over expiry and attempts", () => {
    expect(phoneVerificationState(row({ attempts: 5, verified_at: T0 }), at(PHONE_CODE_TTL_MS * 2))).toBe("verified");
  });
});

describe("codeRateLimit", () => {
  const minutes = (...m: number[]) => m.map((x) => at(x * 60_000));

  it("allows five codes per rolling hour", () => {
    expect(codeRateLimit([], T0)).toEqual({ allowed: true });
    expect(codeRateLimit(minutes(0, 1, 2, 3), at(4 * 60_000))).toEqual({ allowed: true });
    expect(codeRateLimit(minutes(0, 1, 2, 3, 4), at(10 * 60_000))).toEqual({ allowed: false, retry_after_seconds: 50 * 60 });
  });

  it("frees a slot when the oldest code leaves the window", () => {
    expect(codeRateLimit(minutes(0, 1, 2, 3, 4), at(60 * 60_000 - 500))).toEqual({ allowed: false, retry_after_seconds: 1 });
    expect(codeRateLimit(minutes(0, 1, 2, 3, 4), at(60 * 60_000))).toEqual({ allowed: true });
    expect(codeRateLimit(minutes(3, 0, 4, 2, 1), at(30 * 60_000))).toEqual({ allowed: false, retry_after_seconds: 30 * 60 });
  });
});

describe("derivePhoneCodeKey", () => {
  it("is stable per deployment secret and independent across secrets", () => {
    const jwk = { kty: "EC", crv: "P-256", d: "c2VjcmV0LXNjYWxhcg", x: "x", y: "y" };
    const a = derivePhoneCodeKey({ signingKeyJwk: jwk });
    expect(a).toHaveLength(32);
    expect(derivePhoneCodeKey({ signingKeyJwk: { ...jwk } })).toEqual(a);
    expect(derivePhoneCodeKey({ signingKeyJwk: { ...jwk, d: "b3RoZXI" } })).not.toEqual(a);
    // the signing key wins over INTERNAL_SECRET; INTERNAL_SECRET is used without one
    expect(derivePhoneCodeKey({ signingKeyJwk: jwk, internalSecret: "i".repeat(32) })).toEqual(a);
    const b = derivePhoneCodeKey({ internalSecret: "i".repeat(32) });
    expect(b).toEqual(derivePhoneCodeKey({ internalSecret: "i".repeat(32) }));
    expect(b).not.toEqual(a);
    // the key is derived, not the secret itself
    expect(Buffer.from(b).toString("utf8")).not.toContain("iiii");
  });

  it("is random per process without a configured secret", () => {
    expect(derivePhoneCodeKey({})).not.toEqual(derivePhoneCodeKey({}));
  });
});
