import { describe, expect, it } from "vitest";
import { isFreshKycEvent, kycEventTime } from "../../lib/webhooks/kyc-event-freshness.ts";
import { sandboxWebhookSecret } from "../../lib/webhooks/sandbox-webhook-secret.ts";

describe("kycEventTime (createdAtMs)", () => {
  it("reads Sumsub's UTC format and ISO 8601 with an offset", () => {
    expect(kycEventTime("2024-05-06 12:34:56.789")?.toISOString()).toBe("2024-05-06T12:34:56.789Z");
    expect(kycEventTime("2024-05-06 12:34:56")?.toISOString()).toBe("2024-05-06T12:34:56.000Z");
    expect(kycEventTime("2024-05-06T12:34:56.789Z")?.toISOString()).toBe("2024-05-06T12:34:56.789Z");
    expect(kycEventTime("2024-05-06T14:34:56.7891+02:00")?.toISOString()).toBe("2024-05-06T12:34:56.789Z");
  });

  it.each(["", "yesterday", "1715000000000", "2024-05-06", "2024-13-06 12:00:00", "2024-05-06 12:34:56.789 UTC"])("refuses %j", (text) => {
    expect(kycEventTime(text)).toBeUndefined();
  });
});

describe("isFreshKycEvent", () => {
  const now = new Date("2030-01-01T00:10:00.000Z");

  it("accepts up to the tolerance either way, exactly the tolerance included", () => {
    expect(isFreshKycEvent("2030-01-01 00:05:00.000", now, 300)).toBe(true);
    expect(isFreshKycEvent("2030-01-01 00:15:00.000", now, 300)).toBe(true);
    expect(isFreshKycEvent("2030-01-01 00:10:00.000", now, 0)).toBe(true);
  });

  it("refuses older, further ahead and unreadable timestamps", () => {
    expect(isFreshKycEvent("2030-01-01 00:04:59.999", now, 300)).toBe(false);
    expect(isFreshKycEvent("2030-01-01 00:15:00.001", now, 300)).toBe(false);
    expect(isFreshKycEvent("2029-12-31 00:10:00.000", now, 300)).toBe(false);
    expect(isFreshKycEvent("not a time", now, 300)).toBe(false);
  });
});

describe("the KYC sandbox's webhook secret", () => {
  it("is derived from INTERNAL_SECRET (split-mode services agree) and is not the secret itself", () => {
    const internal = "x".repeat(40);
    expect(sandboxWebhookSecret(internal, "kyc")).toBe(sandboxWebhookSecret(internal, "kyc"));
    expect(sandboxWebhookSecret(internal, "kyc")).not.toBe(sandboxWebhookSecret("y".repeat(40), "kyc"));
    expect(sandboxWebhookSecret(internal, "kyc")).not.toContain(internal);
    expect(sandboxWebhookSecret(internal, "kyc")).toMatch(/^[0-9a-f]{64}$/);
  });

  it("without INTERNAL_SECRET is one random value per process", () => {
    expect(sandboxWebhookSecret(undefined, "kyc")).toBe(sandboxWebhookSecret(undefined, "kyc"));
    expect(sandboxWebhookSecret(undefined, "kyc")).not.toBe(sandboxWebhookSecret("x".repeat(40), "kyc"));
  });
});
