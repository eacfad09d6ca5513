import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UsersDb } from "../../../subgraphs/users/db.ts";
import type { SandboxSmsSender } from "../../../subgraphs/users/phone/sandbox-sms-sender.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { statusAndCode } from "../../support/route-cases.ts";

// The user's phone (GET /v0/user/me/phone) and its verification by SMS code, through the REST adapter.
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

const users = () => (platform.subgraphs.users as unknown as { services: { sms: SandboxSmsSender; db: UsersDb } }).services;
const sms = () => users().sms;

const confirm = (jwt: string, code: string) => platform.api("/v0/user/me/phone/verification/confirm", { method: "POST", jwt, json: { code } });

/** Sends a code to `number` (E.164) and answers it as the SMS carried it. */
async function requestCode(jwt: string, number: string): Promise<string> {
  expect((await platform.api("/v0/user/me/phone/verification", { method: "POST", jwt, json: { phone_number: number } })).status).toBe(202);
  return /\b(\d{6})\b/.exec(sms().outbox.get(number)!)![1]!;
}

const otherThan = (code: string) => (code === "000000" ? "111111" : "000000");

describe("phone verification", () => {
  it("sends a code, refuses a wrong one, and verifies with the right one", async () => {
    const { jwt } = await platform.createUser();
    const start = await platform.api("/v0/user/me/phone/verification", { method: "POST", jwt, json: { phone_number: "+44 7700 900123" } });
    expect(start.status).toBe(202);
    expect(await start.json()).toMatchObject({ phone_number: "+447700900123", attempts_remaining: 5 });
    const code = /\b(\d{6})\b/.exec(sms().outbox.get("+447700900123")!)![1]!;

    const wrong = await platform.api("/v0/user/me/phone/verification/confirm", { method: "POST", jwt, json: { code: code === "000000" ? "111111" : "000000" } });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error_code).toBe("PHN-400-001");

    const right = await platform.api("/v0/user/me/phone/verification/confirm", { method: "POST", jwt, json: { code } });
    expect(right.status).toBe(200);
    expect(await right.json()).toMatchObject({ phone_number: "+447700900123", verified: true, pending: null });
    expect((await (await platform.api("/v0/user/me", { jwt })).json()).phone_number).toBe("+447700900123");

    const invalid = await platform.api("/v0/user/me/phone/verification", { method: "POST", jwt, json: { phone_number: "call me" } });
    expect(invalid.status).toBe(422);
    expect((await invalid.json()).detail[0].loc).toEqual(["body", "phone_number"]);
    const none = await platform.api("/v0/user/me/phone/verification/confirm", { method: "POST", jwt, json: { code: "123456" } });
    expect(none.status).toBe(404);
  });

  it("reads the phone state with a credential (401 without one); a read-only personal access token reads it but starts and confirms nothing (403 USR-403-001)", async () => {
    const { jwt } = await platform.createUser();
    const state = await platform.api("/v0/user/me/phone", { jwt });
    expect(state.status).toBe(200);
    expect(await state.json()).toMatchObject({ phone_number: null, verified: false, verified_at: null, pending: null });
    expect((await platform.api("/v0/user/me/phone")).status).toBe(401);

    const { token } = await (await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt, json: { name: "read-only", scopes: ["read"] } })).json();
    expect((await platform.api("/v0/user/me/phone", { pat: token })).status).toBe(200);
    for (const [path, json] of [["/v0/user/me/phone/verification", { phone_number: "+44 7700 900124" }], ["/v0/user/me/phone/verification/confirm", { code: "123456" }]] as const) {
      const refused = await platform.api(path, { method: "POST", pat: token, json });
      expect(refused.status, path).toBe(403);
      expect((await refused.json()).error_code, path).toBe("USR-403-001");
    }
    expect(sms().outbox.has("+447700900124")).toBe(false);
  });
});

describe("phone verification: errors", () => {
  it("answers 404 PHN-404-001 to a code with none requested, and to the code once it was used", async () => {
    const { jwt } = await platform.createUser();
    expect(await statusAndCode(await confirm(jwt, "123456"))).toEqual({ status: 404, code: "PHN-404-001" });
    const code = await requestCode(jwt, "+447700900131");
    expect((await confirm(jwt, code)).status).toBe(200);
    expect(await statusAndCode(await confirm(jwt, code))).toEqual({ status: 404, code: "PHN-404-001" });
  });

  it("answers 410 PHN-410-001 to the right code once it expired or used up its attempts, and verifies nothing", async () => {
    const { jwt, id } = await platform.createUser();
    const expiring = await requestCode(jwt, "+447700900132");
    // ten minutes pass: the stored code's expiry moves into the past
    const { count } = await users().db.phoneVerification.updateMany({ where: { user_id: id, phone_number: "+447700900132" }, data: { expires_at: new Date(Date.now() - 1000) } });
    expect(count).toBe(1);
    expect(await statusAndCode(await confirm(jwt, expiring))).toEqual({ status: 410, code: "PHN-410-001" });

    const exhausted = await requestCode(jwt, "+447700900133");
    for (let i = 0; i < 5; i++) expect(await statusAndCode(await confirm(jwt, otherThan(exhausted)))).toEqual({ status: 400, code: "PHN-400-001" });
    expect(await statusAndCode(await confirm(jwt, exhausted))).toEqual({ status: 410, code: "PHN-410-001" });

    expect(await (await platform.api("/v0/user/me/phone", { jwt })).json()).toMatchObject({ phone_number: null, verified: false, pending: null });
  });
});
