import { describe, expect, it } from "vitest";
import { SAFE_CREATION_STATUSES, type SafeCreationStatus } from "../../lib/vocabulary/wallets.ts";
import { nextSafeCreationStatus, type SafeCreationTrigger } from "../../subgraphs/users/wallets/safe-creation-status.ts";

const TRIGGERS: SafeCreationTrigger[] = ["triggered", "deployed", "deployment_failed", "retry"];
const FROM: (SafeCreationStatus | null)[] = [null, ...SAFE_CREATION_STATUSES];

/** Spec 3.2: (from, trigger) → to; null is "(none)". */
const ALLOWED: [SafeCreationStatus | null, SafeCreationTrigger, SafeCreationStatus][] = [
  [null, "triggered", "processing"], // registration or primary wallet change
  ["processing", "deployed", "completed"],
  ["processing", "deployment_failed", "failed"],
  ["failed", "retry", "processing"], // PATCH wallet retry
];

describe("Safe creation status table (spec 3.2)", () => {
  it("has exactly processing, completed and failed", () => {
    expect([...SAFE_CREATION_STATUSES].sort()).toEqual(["completed", "failed", "processing"]);
  });

  it.each(ALLOWED)("%s --%s--> %s", (from, trigger, to) => {
    expect(nextSafeCreationStatus(from, trigger)).toBe(to);
  });

  const refused = FROM.flatMap((from) => TRIGGERS.map((trigger) => [from, trigger] as const)).filter(
    ([from, trigger]) => !ALLOWED.some(([f, t]) => f === from && t === trigger),
  );

  it("refuses every other (status, trigger) pair", () => {
    expect(refused).toHaveLength(FROM.length * TRIGGERS.length - ALLOWED.length);
  });

  it.each(refused)("refuses %s --%s-->", (from, trigger) => {
    expect(nextSafeCreationStatus(from, trigger)).toBeNull();
  });

  it("keeps completed final and retries only a failed creation", () => {
    for (const trigger of TRIGGERS) expect(nextSafeCreationStatus("completed", trigger)).toBeNull();
    for (const from of FROM) if (from !== "failed") expect(nextSafeCreationStatus(from, "retry")).toBeNull();
  });
});
