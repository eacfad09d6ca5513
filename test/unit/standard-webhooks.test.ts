import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { newWebhookSecret, signStandardWebhook, verifyStandardWebhook } from "../../lib/webhooks/standard-webhooks.ts";

// Issue 29: outgoing events are signed as Standard Webhooks; the reference library must accept them.
const body = JSON.stringify({ id: "evt_01", type: "user.created", data: { id: "usr_1" } });
const now = new Date("2026-11-26T12:00:00Z");
const seconds = Math.floor(now.getTime() / 1000);

describe("Standard Webhooks signatures", () => {
  it("signs what the standardwebhooks package verifies, and rejects a changed body, id or timestamp", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = signStandardWebhook("evt_01", seconds, body, [secret]);
    expect(headers).toMatchObject({ "webhook-id": "evt_01", "webhook-timestamp": String(seconds), "webhook-signature": expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/) });
    const receiver = new Webhook(secret);
    // the library checks the timestamp against the real clock
    const signedNow = signStandardWebhook("evt_01", Math.floor(Date.now() / 1000), body, [secret]);
    expect(receiver.verify(body, { ...signedNow })).toEqual(JSON.parse(body));
    expect(() => receiver.verify(body.replace("usr_1", "usr_2"), { ...signedNow })).toThrow();
    expect(() => receiver.verify(body, { ...signedNow, "webhook-id": "evt_02" })).toThrow();
    expect(verifyStandardWebhook(body, headers, secret, now)).toBe(true);
    expect(verifyStandardWebhook(body, { ...headers, "webhook-timestamp": String(seconds + 1) }, secret, now)).toBe(false);
  });

  it("carries one signature per secret during a rotation, each verifying on its own; a third secret verifies neither", () => {
    const [next, previous, stranger] = [newWebhookSecret(), newWebhookSecret(), newWebhookSecret()];
    const headers = signStandardWebhook("evt_02", Math.floor(Date.now() / 1000), body, [next, previous]);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(new Webhook(next).verify(body, { ...headers })).toBeTruthy();
    expect(new Webhook(previous).verify(body, { ...headers })).toBeTruthy();
    expect(() => new Webhook(stranger).verify(body, { ...headers })).toThrow();
  });

  it("refuses timestamps outside the tolerance either way, and headers that are missing or malformed", () => {
    const secret = newWebhookSecret();
    const headers = signStandardWebhook("evt_03", seconds, body, [secret]);
    expect(verifyStandardWebhook(body, headers, secret, new Date(now.getTime() + 300_000))).toBe(true);
    expect(verifyStandardWebhook(body, headers, secret, new Date(now.getTime() + 301_000))).toBe(false);
    expect(verifyStandardWebhook(body, headers, secret, new Date(now.getTime() - 301_000))).toBe(false);
    expect(verifyStandardWebhook(body, { ...headers, "webhook-signature": "v2,abc" }, secret, now)).toBe(false);
    expect(verifyStandardWebhook(body, { "webhook-id": "evt_03", "webhook-timestamp": String(seconds) }, secret, now)).toBe(false);
    expect(() => signStandardWebhook("evt_03", seconds, body, [])).toThrow();
    expect(() => signStandardWebhook("evt_03", seconds, body, ["not-a-secret"])).toThrow();
  });
});
