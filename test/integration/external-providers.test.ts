import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SumsubKycProvider, sumsubSignature } from "../../subgraphs/users/kyc/sumsub-kyc-provider.ts";
import { maskPhoneNumber, TwilioSmsSender } from "../../subgraphs/users/phone/twilio-sms-sender.ts";
import { startFakeSumsub, startFakeTwilio, type FakeSumsub, type FakeTwilio } from "../support/fake-providers.ts";
import { capturingLogger } from "../support/log-capture.ts";

// The real provider clients against fake providers on loopback that check signatures and auth.
let sumsub: FakeSumsub;
let twilio: FakeTwilio;
beforeAll(async () => {
  sumsub = await startFakeSumsub();
  twilio = await startFakeTwilio();
});
afterAll(async () => {
  await sumsub.stop();
  await twilio.stop();
});

const sumsubClient = (overrides: Partial<{ appToken: string; secretKey: string }> = {}) =>
  new SumsubKycProvider({ appToken: sumsub.appToken, secretKey: sumsub.secretKey, levelName: "basic-kyc-level", baseUrl: sumsub.url, ...overrides });

describe("SumsubKycProvider", () => {
  it("signs like Sumsub: hex HMAC-SHA256 over ts + METHOD + path + body", () => {
    // printf '%s' '1700000000POST/resources/applicants?levelName=x{"a":1}' | openssl dgst -sha256 -hmac key
    const expected = "75a964bcb469a4a7201894e1fd1d826bcb9d03b3575a1717a65d85336187bfde";
    expect(sumsubSignature("key", 1700000000, "post", "/resources/applicants?levelName=x", '{"a":1}')).toBe(expected);
  });

  it("creates the applicant with externalUserId and the level, then issues an SDK token; every request verifies", async () => {
    const client = sumsubClient();
    const { applicant_id } = await client.ensureApplicant({ user_id: "usr_sumsub_1" });
    expect(sumsub.applicants.get("usr_sumsub_1")).toBe(applicant_id);
    const token = await client.accessToken({ user_id: "usr_sumsub_1", applicant_id });
    expect(token.token).toMatch(/^_act-sbx-/);
    expect(token.applicant_id).toBe(applicant_id);
    expect(token.expires_at.getTime()).toBeGreaterThan(Date.now());
    const mine = sumsub.requests.filter((r) => r.body.includes("usr_sumsub_1"));
    expect(mine.map((r) => [r.method, r.path.split("?")[0], r.signed])).toEqual([
      ["POST", "/resources/applicants", true],
      ["POST", "/resources/accessTokens/sdk", true],
    ]);
    expect(mine[0]!.path).toBe("/resources/applicants?levelName=basic-kyc-level");
    expect(JSON.parse(mine[1]!.body)).toEqual({ userId: "usr_sumsub_1", levelName: "basic-kyc-level", ttlInSecs: 600 });
  });

  it("reads an existing applicant back when creation answers 409", async () => {
    const first = await sumsubClient().ensureApplicant({ user_id: "usr_sumsub_2" });
    const again = await sumsubClient().ensureApplicant({ user_id: "usr_sumsub_2" });
    expect(again.applicant_id).toBe(first.applicant_id);
    expect(sumsub.requests.at(-1)).toMatchObject({ method: "GET", path: "/resources/applicants/-;externalUserId=usr_sumsub_2/one", signed: true });
  });

  it("fails with the status only when the provider refuses the signature (wrong secret or token)", async () => {
    for (const overrides of [{ secretKey: "not-the-secret" }, { appToken: "sbx:wrong" }]) {
      const error = await sumsubClient(overrides).ensureApplicant({ user_id: "usr_sumsub_3" }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe("Sumsub answered 401 to POST /resources/applicants (code 401)");
    }
    expect(sumsub.applicants.has("usr_sumsub_3")).toBe(false);
  });
});

describe("TwilioSmsSender", () => {
  it("posts the form with Basic auth and logs only the masked number", async () => {
    const { lines, logger } = capturingLogger();
    const sender = new TwilioSmsSender({ accountSid: twilio.accountSid, authToken: twilio.authToken, from: "+15005550006", baseUrl: twilio.url }, logger);
    await sender.send({ to: "+447700900123", body: "Your verification code is 493817." });
    expect(twilio.messages.at(-1)).toEqual({ To: "+447700900123", From: "+15005550006", Body: "Your verification code is 493817." });
    const log = lines.join("");
    expect(log).toContain("+44*******123");
    expect(log).not.toContain("493817");
    expect(log).not.toContain("+447700900123");
  });

  it("throws Twilio's status and code (never the body) when auth fails or Twilio refuses", async () => {
    const { lines, logger } = capturingLogger();
    const wrongAuth = new TwilioSmsSender({ accountSid: twilio.accountSid, authToken: "wrong", from: "+15005550006", baseUrl: twilio.url }, logger);
    await expect(wrongAuth.send({ to: "+447700900123", body: "code 111111" })).rejects.toThrow("Twilio answered 401 (error 20003)");
    twilio.failWith = 400;
    try {
      const sender = new TwilioSmsSender({ accountSid: twilio.accountSid, authToken: twilio.authToken, from: "+15005550006", baseUrl: twilio.url }, logger);
      const error = await sender.send({ to: "+447700900123", body: "code 222222" }).catch((e: Error) => e);
      expect((error as Error).message).toBe("Twilio answered 400 (error 21211)");
    } finally {
      twilio.failWith = undefined;
    }
    expect(lines.join("")).not.toMatch(/111111|222222/);
  });

  it("masks numbers keeping the country prefix and the last three digits", () => {
    expect(maskPhoneNumber("+4915112345678")).toBe("+49********678");
    expect(maskPhoneNumber("+12345")).toBe("******");
  });
});
