import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { AppError } from "../../lib/errors/app-error.ts";
import { decodeWebhookSecret, signWalletClaim, walletClaimVerifier, type Hmac } from "../../rest-adapter/webhooks/wallet-claim-signature.ts";

const secretA = `whsec_${randomBytes(24).toString("base64")}`;
const secretB = `whsec_${randomBytes(32).toString("base64")}`;
const T = 1_800_000_000;
const at = (seconds: number) => new Date(seconds * 1000);
const body = Buffer.from(JSON.stringify({ id: "evt_1", type: "wallet.pregen_claimed", data: { walletId: "w1" }, createdAt: "2026-01-01T00:00:00Z" }));

function headers(signature: string | undefined, timestamp: string | undefined = String(T), id: string | undefined = "evt_1") {
  return { ...(signature !== undefined && { "webhook-signature": signature }), ...(timestamp !== undefined && { "webhook-timestamp": timestamp }), ...(id !== undefined && { "webhook-id": id }) };
}

/** the thrown error, which must be WHK-401-001 with the catalogue's fixed detail */
function rejection(fn: () => void): AppError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("WHK-401-001");
    expect((error as AppError).detail).toBe("The webhook signature or timestamp is missing or invalid.");
    return error as AppError;
  }
  throw new Error("expected a rejection");
}

describe("wallet-claimed signature verifier (spec 5.3)", () => {
  it("accepts a v1 HMAC-SHA256 over {timestamp}.{body} keyed by the decoded whsec secret", () => {
    const verify = walletClaimVerifier([secretA]);
    const expected = createHmac("sha256", Buffer.from(secretA.slice(6), "base64")).update(`${T}.${body}`).digest("base64");
    expect(signWalletClaim(secretA, String(T), body)).toBe(`v1,${expected}`);
    expect(() => verify(body, headers(`v1,${expected}`), at(T))).not.toThrow();
  });

  it("re-signs the official Standard Webhooks vector's inputs our way", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const timestamp = "1614265330";
    const payload = Buffer.from('{"test": 2432232314}');
    // the key decoding is the standard one: the vector's own signature over {id}.{timestamp}.{body}
    const standard = createHmac("sha256", decodeWebhookSecret(secret)).update(`msg_p5jXN8AQM9LWM0D4loKWxJek.${timestamp}.${payload}`).digest("base64");
    expect(standard).toBe("g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    // ours signs {timestamp}.{body} (value computed independently with openssl)
    const ours = "v1,6WIDxt6FDn3B/edInvYUC0AtOlpk/iUM0u75gw+sHO8=";
    expect(signWalletClaim(secret, timestamp, payload)).toBe(ours);
    const verify = walletClaimVerifier([secret]);
    expect(() => verify(payload, headers(ours, timestamp, "msg_p5jXN8AQM9LWM0D4loKWxJek"), at(1614265330))).not.toThrow();
    // the Standard Webhooks signature itself does not verify under our scheme
    rejection(() => verify(payload, headers(`v1,${standard}`, timestamp, "msg_p5jXN8AQM9LWM0D4loKWxJek"), at(1614265330)));
  });

  it("accepts during rotation: a value signed with either configured secret", () => {
    const verify = walletClaimVerifier([secretA, secretB]);
    expect(() => verify(body, headers(signWalletClaim(secretA, String(T), body)), at(T))).not.toThrow();
    expect(() => verify(body, headers(signWalletClaim(secretB, String(T), body)), at(T))).not.toThrow();
    const other = `whsec_${randomBytes(24).toString("base64")}`;
    rejection(() => verify(body, headers(signWalletClaim(other, String(T), body)), at(T)));
  });

  it("accepts a header with several space-separated values if any verifies, in any position", () => {
    const verify = walletClaimVerifier([secretB]);
    const other = `whsec_${randomBytes(24).toString("base64")}`;
    const good = signWalletClaim(secretB, String(T), body);
    const bad = signWalletClaim(other, String(T), body);
    expect(() => verify(body, headers(`${bad} ${good}`), at(T))).not.toThrow();
    expect(() => verify(body, headers(`${good} ${bad}`), at(T))).not.toThrow();
    expect(() => verify(body, headers(`v1a,xyz ${bad} ${good}`), at(T))).not.toThrow();
    rejection(() => verify(body, headers(`${bad} ${bad}`), at(T)));
    // only v1 values count
    rejection(() => verify(body, headers(good.replace("v1,", "v2,")), at(T)));
  });

  it.each([
    [-301, false],
    [-300, true],
    [-299, true],
    [0, true],
    [299, true],
    [300, true],
    [301, false],
  ])("a timestamp %i s from server time is %s", (offset, accepted) => {
    const verify = walletClaimVerifier([secretA]);
    const timestamp = String(T + offset);
    const run = () => verify(body, headers(signWalletClaim(secretA, timestamp, body), timestamp), at(T));
    if (accepted) expect(run).not.toThrow();
    else rejection(run);
  });

  it("refuses a body altered by one byte, and a signature over another timestamp", () => {
    const verify = walletClaimVerifier([secretA]);
    const signature = signWalletClaim(secretA, String(T), body);
    const altered = Buffer.from(body);
    altered[10] = altered[10]! ^ 0x01;
    rejection(() => verify(altered, headers(signature), at(T)));
    rejection(() => verify(Buffer.concat([body, Buffer.from(" ")]), headers(signature), at(T)));
    rejection(() => verify(body, headers(signature, String(T + 1)), at(T)));
  });

  it("refuses a missing or malformed timestamp, and a stale one, before computing any HMAC", () => {
    const hmac = vi.fn<Hmac>((key, content) => createHmac("sha256", key).update(content).digest());
    const verify = walletClaimVerifier([secretA, secretB], hmac);
    const signature = signWalletClaim(secretA, String(T), body);
    rejection(() => verify(body, { "webhook-signature": signature, "webhook-id": "evt_1" }, at(T)));
    for (const timestamp of ["", "abc", "1.8e9", "-1800000000", " 1800000000", "1800000000.5", "0x6B49D200", String(T - 301), String(T + 301), "999999999999"]) {
      rejection(() => verify(body, headers(signature, timestamp), at(T)));
    }
    rejection(() => verify(body, { "webhook-signature": signature, "webhook-timestamp": [String(T), String(T)], "webhook-id": "evt_1" }, at(T)));
    expect(hmac).not.toHaveBeenCalled();
    // a good timestamp does reach it, once per secret
    verify(body, headers(signature), at(T));
    expect(hmac).toHaveBeenCalledTimes(2);
  });

  it("refuses a missing or empty signature, and everything when no secret is configured", () => {
    const verify = walletClaimVerifier([secretA]);
    const signature = signWalletClaim(secretA, String(T), body);
    rejection(() => verify(body, headers(undefined), at(T)));
    rejection(() => verify(body, headers(""), at(T)));
    rejection(() => verify(body, headers("v1,"), at(T)));
    rejection(() => walletClaimVerifier([])(body, headers(signature), at(T)));
  });

  it("does not need webhook-id: it is not signed (the receiver compares it, when sent, with the envelope id)", () => {
    const verify = walletClaimVerifier([secretA]);
    expect(() => verify(body, { "webhook-signature": signWalletClaim(secretA, String(T), body), "webhook-timestamp": String(T) }, at(T))).not.toThrow();
  });

  it("never echoes the supplied signature or timestamp", () => {
    const verify = walletClaimVerifier([secretA]);
    const error = rejection(() => verify(body, headers("v1,c2VjcmV0LXNpZ25hdHVyZQ==", "1234567890"), at(T)));
    expect(error.message).not.toContain("c2VjcmV0");
    expect(error.message).not.toContain("1234567890");
  });
});
