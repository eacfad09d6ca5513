/**
 * The user's account status, which is its KYC status (spec 3.1; the state table:
 * subgraphs/users/user/account-status.ts).
 */
export const ACCOUNT_STATUSES = ["pending", "in_progress", "retry", "approved", "rejected"] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** The review decision a developer asks the sandbox KYC provider for (POST /v0/kyc/sandbox/decision). */
export const SANDBOX_KYC_DECISIONS = ["GREEN", "RED", "PENDING"] as const;
export type SandboxKycDecision = (typeof SANDBOX_KYC_DECISIONS)[number];
