import { describe, expect, it } from "vitest";
import { kycEventId, signKycPayload, verifyKycPayloadDigest } from "../../lib/webhooks/kyc-payload-digest.ts";
import { kycTriggerOf } from "../../subgraphs/users/kyc/kyc-provider-event.resolver.ts";

const SECRET = "kyc-webhook-secret";
const body = Buffer.from(JSON.stringify({ type: "applicantReviewed", applicantId: "app_1", externalUserId: "usr_1", reviewResult: { reviewAnswer: "GREEN" } }));
const headers = (digest: string | undefined, alg: string | undefined) => ({
  ...(digest !== undefined && { "x-payload-digest": digest }),
  ...(alg !== undefined && { "x-payload-digest-alg": alg }),
});

describe("signKycPayload", () => {
  // the well-known HMAC vectors: key "key", message "The quick brown fox jumps over the lazy dog"
  it("is the hex HMAC of the raw bytes (SHA-256 and SHA-512)", () => {
    const message = "The quick brown fox jumps over the lazy dog";
    expect(signKycPayload(message, "key", "HMAC_SHA256_HEX")).toBe("f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8");
    expect(signKycPayload(message, "key", "HMAC_SHA512_HEX")).toBe(
      "b42af09057bac1e2d41708e48a902e09b5ff7f12ab428a4fe86653c73dd248fb82f948a549f7b791a5b41915ee4d1ec3935357e4e2317250d0372afa2ebeeb3a",
    );
  });
});

describe("verifyKycPayloadDigest", () => {
  it("accepts HMAC_SHA256_HEX and HMAC_SHA512_HEX digests of the exact body", () => {
    expect(verifyKycPayloadDigest(body, headers(signKycPayload(body, SECRET, "HMAC_SHA256_HEX"), "HMAC_SHA256_HEX"), SECRET)).toBe(true);
    expect(verifyKycPayloadDigest(body, headers(signKycPayload(body, SECRET, "HMAC_SHA512_HEX"), "HMAC_SHA512_HEX"), SECRET)).toBe(true);
  });

  it("accepts an upper-case hex digest", () => {
    expect(verifyKycPayloadDigest(body, headers(signKycPayload(body, SECRET).toUpperCase(), "HMAC_SHA256_HEX"), SECRET)).toBe(true);
  });

  it("refuses a digest computed with another algorithm than the header names", () => {
    expect(verifyKycPayloadDigest(body, headers(signKycPayload(body, SECRET, "HMAC_SHA512_HEX"), "HMAC_SHA256_HEX"), SECRET)).toBe(false);
    expect(verifyKycPayloadDigest(body, headers(signKycPayload(body, SECRET, "HMAC_SHA256_HEX"), "HMAC_SHA512_HEX"), SECRET)).toBe(false);
  });

  it("refuses unknown algorithms and the legacy HMAC_SHA1_HEX, even with a correct SHA-1 digest", async () => {
    const { createHmac } = await import("node:crypto");
    const sha1 = createHmac("sha1", SECRET).update(body).digest("hex");
    expect(verifyKycPayloadDigest(body, headers(sha1, "HMAC_SHA1_HEX"), SECRET)).toBe(false);
    const md5 = createHmac("md5", SECRET).update(body).digest("hex");
    expect(verifyKycPayloadDigest(body, headers(md5, "HMAC_MD5_HEX"), SECRET)).toBe(false);
    for (const alg of ["sha256", "hmac_sha256_hex", "", "toString", "__proto__"]) {
      expect(verifyKycPayloadDigest(body, headers(signKycPayload(body, SECRET), alg), SECRET)).toBe(false);
    }
  });

  it("refuses a body with one byte altered", () => {
    const digest = signKycPayload(body, SECRET);
    for (const index of [0, Math.floor(body.length / 2), body.length - 1]) {
      const altered = Buffer.from(body);
      altered[index] = altered[index]! ^ 0x01;
      expect(verifyKycPayloadDigest(altered, headers(digest, "HMAC_SHA256_HEX"), SECRET)).toBe(false);
    }
  });

  it("refuses missing, repeated or malformed headers", () => {
    const digest = signKycPayload(body, SECRET);
    expect(verifyKycPayloadDigest(body, headers(undefined, "HMAC_SHA256_HEX"), SECRET)).toBe(false);
    expect(verifyKycPayloadDigest(body, headers(digest, undefined), SECRET)).toBe(false);
    expect(verifyKycPayloadDigest(body, headers(undefined, undefined), SECRET)).toBe(false);
    expect(verifyKycPayloadDigest(body, { "x-payload-digest": [digest, digest], "x-payload-digest-alg": "HMAC_SHA256_HEX" }, SECRET)).toBe(false);
    expect(verifyKycPayloadDigest(body, headers("", "HMAC_SHA256_HEX"), SECRET)).toBe(false);
    expect(verifyKycPayloadDigest(body, headers(digest.slice(0, -2), "HMAC_SHA256_HEX"), SECRET)).toBe(false);
    expect(verifyKycPayloadDigest(body, headers(`${digest}00`, "HMAC_SHA256_HEX"), SECRET)).toBe(false);
    expect(verifyKycPayloadDigest(body, headers(`${digest.slice(0, -1)}z`, "HMAC_SHA256_HEX"), SECRET)).toBe(false);
    expect(verifyKycPayloadDigest(body, headers(Buffer.from(digest, "hex").toString("base64"), "HMAC_SHA256_HEX"), SECRET)).toBe(false);
  });

  it("refuses a digest made with another secret, and everything when no secret is configured", () => {
    const digest = signKycPayload(body, SECRET);
    expect(verifyKycPayloadDigest(body, headers(signKycPayload(body, "another-secret"), "HMAC_SHA256_HEX"), SECRET)).toBe(false);
    expect(verifyKycPayloadDigest(body, headers(digest, "HMAC_SHA256_HEX"), undefined)).toBe(false);
    expect(verifyKycPayloadDigest(body, headers(signKycPayload(body, ""), "HMAC_SHA256_HEX"), "")).toBe(false);
  });
});

describe("kycEventId", () => {
  it("is the same for the same content (whitespace aside) and differs for any other content", () => {
    const a = kycEventId(JSON.parse(body.toString()));
    expect(a).toMatch(/^kyc_[0-9a-f]{64}$/);
    expect(kycEventId(JSON.parse(JSON.stringify(JSON.parse(body.toString()), null, 2)))).toBe(a);
    expect(kycEventId({ ...JSON.parse(body.toString()), correlationId: "other" })).not.toBe(a);
  });
});

describe("kycTriggerOf (spec 6)", () => {
  it("maps applicantReviewed GREEN/RED and applicantPending; everything else is no trigger", () => {
    expect(kycTriggerOf("applicantReviewed", "GREEN")).toBe("kyc_approved");
    expect(kycTriggerOf("applicantReviewed", "RED")).toBe("kyc_rejected");
    expect(kycTriggerOf("applicantPending", null)).toBe("kyc_retry_requested");
    expect(kycTriggerOf("applicantReviewed", null)).toBeNull();
    expect(kycTriggerOf("applicantCreated", null)).toBeNull();
    expect(kycTriggerOf("applicantOnHold", "GREEN")).toBeNull();
  });
});
