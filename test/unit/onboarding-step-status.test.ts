import { describe, expect, it } from "vitest";
import {
  isStepRequired,
  kycStepStatus,
  onboardingSafeMode,
  phoneStepStatus,
  safeCreationModeOf,
  safeStepStatus,
  type SafeWalletFacts,
} from "../../subgraphs/users/onboarding/step-status.ts";
import { STEP_STATUSES } from "../../lib/vocabulary/onboarding.ts";

const agent = (safe_creation_status: string | null): SafeWalletFacts => ({ safe_creation_status, safe_creation_event_id: "sce_1", safe_deployment_tx_hash: null });
const userSigned = (safe_creation_status: string | null): SafeWalletFacts => ({ safe_creation_status, safe_creation_event_id: "sce_2", safe_deployment_tx_hash: "0xab" });
const byo: SafeWalletFacts = { safe_creation_status: "completed", safe_creation_event_id: null, safe_deployment_tx_hash: null };

describe("required", () => {
  it("is true until a step is completed or skipped", () => {
    expect(STEP_STATUSES.filter(isStepRequired)).toEqual(["not_started", "awaiting_user", "processing", "failed"]);
  });
});

describe("safeCreationModeOf", () => {
  it("tells the modes apart by what created the Safe", () => {
    expect(safeCreationModeOf(agent("processing"))).toBe("agent_create2");
    expect(safeCreationModeOf(userSigned("processing"))).toBe("user_signed_deploy");
    expect(safeCreationModeOf(byo)).toBe("byo");
  });
});

describe("onboardingSafeMode", () => {
  it("is the default agent_create2 with nothing chosen", () => {
    expect(onboardingSafeMode(null, null)).toBe("agent_create2");
    expect(onboardingSafeMode(null, agent("failed"))).toBe("agent_create2");
  });

  it("follows a deploying or deployed Safe over the user's choice", () => {
    expect(onboardingSafeMode("byo", agent("processing"))).toBe("agent_create2");
    expect(onboardingSafeMode("agent_create2", userSigned("completed"))).toBe("user_signed_deploy");
    expect(onboardingSafeMode("agent_create2", byo)).toBe("byo");
  });

  it("follows the user's choice once the Safe failed", () => {
    expect(onboardingSafeMode("byo", agent("failed"))).toBe("byo");
    expect(onboardingSafeMode("user_signed_deploy", agent("failed"))).toBe("user_signed_deploy");
    expect(onboardingSafeMode("nonsense", agent("failed"))).toBe("agent_create2");
  });
});

describe("safeStepStatus", () => {
  it("maps the primary Safe's creation status", () => {
    expect(safeStepStatus("agent_create2", agent("processing"))).toBe("processing");
    expect(safeStepStatus("agent_create2", agent("completed"))).toBe("completed");
    expect(safeStepStatus("agent_create2", agent("failed"))).toBe("failed");
    expect(safeStepStatus("user_signed_deploy", userSigned("processing"))).toBe("processing");
    expect(safeStepStatus("user_signed_deploy", userSigned("failed"))).toBe("failed");
    expect(safeStepStatus("byo", byo)).toBe("completed");
  });

  it("waits for the user after they switched away from a failed Safe", () => {
    expect(safeStepStatus("byo", agent("failed"))).toBe("awaiting_user");
    expect(safeStepStatus("user_signed_deploy", agent("failed"))).toBe("awaiting_user");
  });

  it("without a Safe: not_started for agent_create2, awaiting_user where the user acts first", () => {
    expect(safeStepStatus("agent_create2", null)).toBe("not_started");
    expect(safeStepStatus("byo", null)).toBe("awaiting_user");
    expect(safeStepStatus("user_signed_deploy", null)).toBe("awaiting_user");
  });
});

describe("kycStepStatus", () => {
  it("maps the account status of spec 3.1", () => {
    expect(kycStepStatus("pending", false)).toBe("not_started");
    expect(kycStepStatus("pending", true)).toBe("awaiting_user");
    expect(kycStepStatus("in_progress", true)).toBe("processing");
    expect(kycStepStatus("retry", true)).toBe("awaiting_user");
    expect(kycStepStatus("approved", true)).toBe("completed");
    expect(kycStepStatus("rejected", true)).toBe("failed");
  });
});

describe("phoneStepStatus", () => {
  it("completed when verified, even after a skip; else skipped, awaiting a code, or not started", () => {
    expect(phoneStepStatus({ verified: true, skipped: true, codePending: false })).toBe("completed");
    expect(phoneStepStatus({ verified: false, skipped: true, codePending: true })).toBe("skipped");
    expect(phoneStepStatus({ verified: false, skipped: false, codePending: true })).toBe("awaiting_user");
    expect(phoneStepStatus({ verified: false, skipped: false, codePending: false })).toBe("not_started");
  });
});
