import type { AccountStatus } from "../../../lib/vocabulary/kyc.ts";

/**
 * The user / KYC state table of spec 3.1, as data. Every status change goes through
 * `nextAccountStatus`; webhooks (a later issue) use the same table to decide apply-or-ignore.
 */

export type AccountTrigger =
  | "kyc_started" // user starts verification (documents submitted)
  | "kyc_resubmitted" // user resubmits after retry
  | "kyc_approved" // provider applicantReviewed GREEN
  | "kyc_rejected" // provider applicantReviewed RED
  | "kyc_retry_requested"; // provider applicantPending

const TRANSITIONS: Record<AccountTrigger, Partial<Record<AccountStatus, AccountStatus>>> = {
  kyc_started: { pending: "in_progress" },
  kyc_resubmitted: { retry: "in_progress" },
  kyc_approved: { in_progress: "approved" },
  kyc_rejected: { in_progress: "rejected" },
  kyc_retry_requested: { in_progress: "retry" },
};

/** The status after `trigger`, or null when the state table does not allow it from `from`. */
export function nextAccountStatus(from: AccountStatus, trigger: AccountTrigger): AccountStatus | null {
  return TRANSITIONS[trigger][from] ?? null;
}

/** Starting and resubmitting verification are one user action: whichever the status allows. */
export function verificationSubmissionTrigger(from: AccountStatus): AccountTrigger | null {
  if (from === "pending") return "kyc_started";
  if (from === "retry") return "kyc_resubmitted";
  return null;
}

export const REGISTRATION_STATUS: AccountStatus = "pending";
