import { describe, expect, it } from "vitest";
import { BANK_CONNECTION_STATUSES } from "../../lib/vocabulary/bank-accounts.ts";
import { TRANSACTION_STATUSES } from "../../lib/vocabulary/transactions.ts";
import { bankingSignatureValue, signBankingPayload, verifyBankingSignature } from "../../lib/webhooks/banking-signature.ts";
import { sandboxWebhookSecret } from "../../lib/webhooks/sandbox-webhook-secret.ts";
import { nextConnectionStatus, type ConnectionTrigger } from "../../subgraphs/finance/banking/connection-status.ts";
import { pathBetween } from "../../subgraphs/finance/transactions/transaction-status.ts";

describe("a bank connection's moves", () => {
  const triggers: ConnectionTrigger[] = ["link_completed", "link_failed", "reauth_required"];
  const allowed: Record<string, string> = {
    "active link_failed": "error",
    "active reauth_required": "reauth_required",
    "reauth_required link_completed": "active",
    "reauth_required link_failed": "error",
    "error link_completed": "active",
    "error reauth_required": "reauth_required",
  };

  it("allows exactly the table's moves and refuses every other, revoked being final", () => {
    for (const from of BANK_CONNECTION_STATUSES)
      for (const trigger of triggers) expect([from, trigger, nextConnectionStatus(from, trigger)]).toEqual([from, trigger, allowed[`${from} ${trigger}`] ?? null]);
  });
});

describe("walking a transaction's status as a provider reports it (spec 3.4)", () => {
  it("finds the legal steps forward and nothing backward or out of a final status", () => {
    expect(pathBetween("pending", "completed")).toEqual(["processing", "completed"]);
    expect(pathBetween("pending", "failed")).toEqual(["processing", "failed"]);
    expect(pathBetween("processing", "completed")).toEqual(["completed"]);
    expect(pathBetween("pending", "pending")).toEqual([]);
    for (const final of ["completed", "failed"] as const)
      for (const to of TRANSACTION_STATUSES) if (to !== final) expect(pathBetween(final, to)).toBeNull();
    expect(pathBetween("processing", "pending")).toBeNull();
  });
});

describe("the banking webhook signature", () => {
  const body = Buffer.from(`{"id":"evt_1","type":"ramp.completed","created_at":"2026-11-23T12:00:00.000Z","data":{"ramp_id":"r"}}`);
  const t = 1_795_435_200;
  const at = (seconds: number) => new Date(seconds * 1000);

  it("is the hex HMAC-SHA256 of `{t}.{body}` (the documented worked example can be recomputed)", async () => {
    const { createHmac } = await import("node:crypto");
    expect(bankingSignatureValue("secret", t, body)).toBe(createHmac("sha256", "secret").update(`${t}.${body.toString()}`).digest("hex"));
    expect(signBankingPayload(body, ["a", "b"], t)).toBe(`t=${t},v1=${bankingSignatureValue("a", t, body)},v1=${bankingSignatureValue("b", t, body)}`);
  });

  it("verifies any v1 under any configured secret (rotation), within the tolerance either way, exactly 300 s included", () => {
    const header = signBankingPayload(body, ["old"], t);
    expect(verifyBankingSignature(body, header, ["new", "old"], at(t), 300)).toBe(true);
    expect(verifyBankingSignature(body, header, ["new", "old"], at(t + 300), 300)).toBe(true);
    expect(verifyBankingSignature(body, header, ["new", "old"], at(t - 300), 300)).toBe(true);
    expect(verifyBankingSignature(body, header, ["new", "old"], at(t + 301), 300)).toBe(false);
    expect(verifyBankingSignature(body, header, ["new", "old"], at(t - 301), 300)).toBe(false);
  });

  it("refuses another secret, no secret, altered bytes, a missing or repeated header, a missing timestamp and malformed values", () => {
    const header = signBankingPayload(body, ["s"], t);
    expect(verifyBankingSignature(body, header, ["other"], at(t), 300)).toBe(false);
    expect(verifyBankingSignature(body, header, [], at(t), 300)).toBe(false);
    expect(verifyBankingSignature(Buffer.concat([body, Buffer.from(" ")]), header, ["s"], at(t), 300)).toBe(false);
    expect(verifyBankingSignature(body, undefined, ["s"], at(t), 300)).toBe(false);
    expect(verifyBankingSignature(body, [header, header], ["s"], at(t), 300)).toBe(false);
    expect(verifyBankingSignature(body, header.replace(`t=${t},`, ""), ["s"], at(t), 300)).toBe(false);
    expect(verifyBankingSignature(body, `t=${t},v1=${"0".repeat(64)}`, ["s"], at(t), 300)).toBe(false);
    expect(verifyBankingSignature(body, `t=${t},v1=XYZ`, ["s"], at(t), 300)).toBe(false);
    expect(verifyBankingSignature(body, header.replace(`t=${t}`, `t=${t + 1}`), ["s"], at(t), 300)).toBe(false);
  });

  it("derives the sandbox's own secret from INTERNAL_SECRET, never equal to it, the same in every service", () => {
    expect(sandboxWebhookSecret("x".repeat(32), "banking")).toBe(sandboxWebhookSecret("x".repeat(32), "banking"));
    expect(sandboxWebhookSecret("x".repeat(32), "banking")).not.toBe(sandboxWebhookSecret("y".repeat(32), "banking"));
    expect(sandboxWebhookSecret("x".repeat(32), "banking")).not.toContain("x".repeat(32));
    expect(sandboxWebhookSecret("x".repeat(32), "banking")).not.toBe(sandboxWebhookSecret("x".repeat(32), "kyc"));
  });
});
