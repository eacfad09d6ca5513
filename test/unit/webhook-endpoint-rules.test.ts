import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { CardDataCipher } from "../../lib/crypto/card-data-cipher.ts";
import { AppError } from "../../lib/errors/app-error.ts";
import { checkEventTypes } from "../../subgraphs/identity/webhook-endpoints/webhook-endpoint-input.ts";
import { newWebhookSecret, signStandardWebhook } from "../../lib/webhooks/standard-webhooks.ts";
import { rotatedSecretColumns, signingSecrets } from "../../subgraphs/identity/webhook-endpoints/webhook-secrets.ts";

// A webhook endpoint's rules as plain functions (subgraphs/identity/webhook-endpoints/): the event
// types it takes, and which secrets sign a delivery at a given time.

const cipher = CardDataCipher.load(randomBytes(32), "memory://");

function validation(run: () => unknown) {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.validation;
    throw error;
  }
  throw new Error("accepted");
}

describe("checkEventTypes", () => {
  it("keeps catalogue names once each, in order, or * alone", () => {
    expect(checkEventTypes(["card.created", "user.created", "card.created"])).toEqual(["card.created", "user.created"]);
    expect(checkEventTypes(["*", "*"])).toEqual(["*"]);
  });

  it("refuses an empty list, * beside names, and names every unknown type at its index", () => {
    expect(validation(() => checkEventTypes([]))).toMatchObject([{ loc: ["event_types"], type: "too_short" }]);
    expect(validation(() => checkEventTypes(["*", "user.created"]))).toMatchObject([{ loc: ["event_types"] }]);
    expect(validation(() => checkEventTypes(["user.deleted", "user.created", "card.*"]))).toMatchObject([
      { loc: ["event_types", 0], input: "user.deleted", type: "enum" },
      { loc: ["event_types", 2], input: "card.*", type: "enum" },
    ]);
  });
});

describe("signingSecrets", () => {
  const now = new Date("2026-11-26T12:00:00Z");

  it("signs with the current secret only, before any rotation", () => {
    const secret = newWebhookSecret();
    expect(signingSecrets(cipher, { secret: cipher.seal(secret), secret_previous: null, previous_expires_at: null }, now)).toEqual([secret]);
  });

  it("signs with both secrets during a rotation's overlap, and with the new one only from its end", () => {
    const first = newWebhookSecret();
    const endpoint = { secret: cipher.seal(first) };
    const { secret, columns } = rotatedSecretColumns(cipher, endpoint, 3600, now);
    expect(columns.previous_expires_at).toEqual(new Date(now.getTime() + 3_600_000));
    const at = (ms: number) => signingSecrets(cipher, columns, new Date(now.getTime() + ms));
    expect(at(0)).toEqual([secret, first]);
    expect(at(3_599_999)).toEqual([secret, first]);
    expect(at(3_600_000)).toEqual([secret]);
    // a delivery signed with them verifies with either secret in the reference library
    const body = JSON.stringify({ id: "evt_01", type: "user.created" });
    const headers = signStandardWebhook("evt_01", Math.floor(Date.now() / 1000), body, at(0));
    for (const receiverSecret of [secret, first]) expect(new Webhook(receiverSecret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it("keeps no previous secret with an overlap of 0, and only the latest previous one after two rotations", () => {
    const first = newWebhookSecret();
    const once = rotatedSecretColumns(cipher, { secret: cipher.seal(first) }, 0, now);
    expect(once.columns).toMatchObject({ secret_previous: null, previous_expires_at: null });
    expect(signingSecrets(cipher, once.columns, now)).toEqual([once.secret]);
    const a = rotatedSecretColumns(cipher, { secret: cipher.seal(first) }, 60, now);
    const b = rotatedSecretColumns(cipher, a.columns, 60, new Date(now.getTime() + 1000));
    expect(signingSecrets(cipher, b.columns, new Date(now.getTime() + 2000))).toEqual([b.secret, a.secret]);
  });
});
