import type { AccountStatus } from "../../../lib/vocabulary/kyc.ts";
import { ONBOARDING_SAFE_MODES, type OnboardingSafeMode, type StepStatus } from "../../../lib/vocabulary/onboarding.ts";
import { isOneOf } from "../../../lib/vocabulary/values.ts";
import type { SafeCreationStatus } from "../../../lib/vocabulary/wallets.ts";

/** spec 2.4 `required`: true until the step is completed or skipped. */
export function isStepRequired(status: StepStatus): boolean {
  return status !== "completed" && status !== "skipped";
}

/** The mode registration starts with: the agent signer workflow deploys by CREATE2. */
export const DEFAULT_ONBOARDING_SAFE_MODE: OnboardingSafeMode = "agent_create2";

export interface SafeWalletFacts {
  safe_creation_status: string | null;
  safe_creation_event_id: string | null;
  safe_deployment_tx_hash: string | null;
}

/**
 * How a Safe wallet came to be: a user-sent deployment transaction means user_signed_deploy, a
 * platform deployment event agent_create2, neither (registered as it was) byo.
 */
export function safeCreationModeOf(wallet: SafeWalletFacts): OnboardingSafeMode {
  if (wallet.safe_deployment_tx_hash) return "user_signed_deploy";
  if (wallet.safe_creation_event_id) return "agent_create2";
  return "byo";
}

/**
 * The onboarding mode shown: the mode of the primary Safe while it is deploying or deployed (it
 * cannot change then); otherwise the mode the user chose, else that of the failed Safe, else the
 * default.
 */
export function onboardingSafeMode(chosen: string | null, primarySafe: SafeWalletFacts | null): OnboardingSafeMode {
  const status = primarySafe?.safe_creation_status;
  if (primarySafe && (status === "processing" || status === "completed" || status === null)) return safeCreationModeOf(primarySafe);
  if (isOneOf(ONBOARDING_SAFE_MODES, chosen)) return chosen;
  return primarySafe ? safeCreationModeOf(primarySafe) : DEFAULT_ONBOARDING_SAFE_MODE;
}

/**
 * The Safe step from the primary Safe (spec 3.2 statuses) and the mode shown: deployed →
 * completed; deploying → processing; failed → failed when it failed in the shown mode, else
 * awaiting_user (the user picked another mode and has yet to submit); no Safe → not_started for
 * agent_create2 (nothing triggered), awaiting_user for the modes where the user acts first.
 */
export function safeStepStatus(mode: OnboardingSafeMode, primarySafe: SafeWalletFacts | null): StepStatus {
  if (primarySafe) {
    const status = primarySafe.safe_creation_status as SafeCreationStatus | null;
    if (status === "completed" || status === null) return "completed";
    if (status === "processing") return "processing";
    if (status === "failed") return safeCreationModeOf(primarySafe) === mode ? "failed" : "awaiting_user";
  }
  return mode === "agent_create2" ? "not_started" : "awaiting_user";
}

/** KYC step from the account status (spec 3.1); `pending` is awaiting_user once an applicant exists. */
export function kycStepStatus(status: AccountStatus, hasApplicant: boolean): StepStatus {
  switch (status) {
    case "approved":
      return "completed";
    case "rejected":
      return "failed";
    case "in_progress":
      return "processing";
    case "retry":
      return "awaiting_user";
    case "pending":
      return hasApplicant ? "awaiting_user" : "not_started";
  }
}

/** Phone step: a verified number completes it (even after a skip); a live code is awaiting_user. */
export function phoneStepStatus(input: { verified: boolean; skipped: boolean; codePending: boolean }): StepStatus {
  if (input.verified) return "completed";
  if (input.skipped) return "skipped";
  return input.codePending ? "awaiting_user" : "not_started";
}
