import { describe, expect, it } from "vitest";
import { isFreshKycEvent, kycEventTime } from "../../lib/webhooks/kyc-event-freshness.ts";
import { kycSandboxWebhookSecret } from "../../lib/webhooks/kyc-sandbox-secret.ts";

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

describe("kycSandboxWebhookSecret", () => {
  it("is derived from INTERNAL_SECRET (split-mode services agree) and is not the secret itself", () => {
    const internal = "x".repeat(40);
    expect(kycSandboxWebhookSecret(internal)).toBe(kycSandboxWebhookSecret(internal));
    expect(kycSandboxWebhookSecret(internal)).not.toBe(kycSandboxWebhookSecret("y".repeat(40)));
    expect(kycSandboxWebhookSecret(internal)).not.toContain(internal);
    expect(kycSandboxWebhookSecret(internal)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("without INTERNAL_SECRET is one random value per process", () => {
    expect(kycSandboxWebhookSecret(undefined)).toBe(kycSandboxWebhookSecret(undefined));
    expect(kycSandboxWebhookSecret(undefined)).not.toBe(kycSandboxWebhookSecret("x".repeat(40)));
  });
});
