/**
 * Status of an onboarding step (spec 2.4 `step_status`; 3.6 leaves the values to us):
 * - `not_started`: nothing has happened yet; the user starts it.
 * - `awaiting_user`: prepared or under way, waiting for the user (submit the Safe or the deployment
 *   transaction, enter the SMS code, resubmit KYC documents).
 * - `processing`: the platform or a provider is working (Safe deployment, KYC review); poll.
 * - `completed`: done.
 * - `failed`: the last attempt failed; the user acts again (retry the Safe), or, for a rejected
 *   KYC, cannot (terminal).
 * - `skipped`: the user skipped an optional step.
 */
export const STEP_STATUSES = ["not_started", "awaiting_user", "processing", "completed", "failed", "skipped"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** How the user's Safe comes to be (spec 2.4 `mode`). */
export const ONBOARDING_SAFE_MODES = ["user_signed_deploy", "byo", "agent_create2"] as const;
export type OnboardingSafeMode = (typeof ONBOARDING_SAFE_MODES)[number];

/** The GraphQL type of the Safe-onboarding `config` each mode answers (the union OnboardingSafeConfig, discriminated by `mode`). */
export const ONBOARDING_SAFE_CONFIG_TYPES = { agent_create2: "AgentCreate2ConfigData", user_signed_deploy: "UserSignedDeployData", byo: "BYOConfigData" } as const satisfies Record<OnboardingSafeMode, string>;

/**
 * The onboarding checklist, in the order a client walks it. `safe` is started by registration
 * (the Safe deployment) and finished through POST /v0/user/me/onboarding/safe; `phone` is the SMS
 * verification and the only optional step; `kyc` is identity verification (spec 3.1).
 */
export const ONBOARDING_STEPS = ["safe", "phone", "kyc"] as const;
export type OnboardingStepName = (typeof ONBOARDING_STEPS)[number];

/** What POST /v0/user/me/onboarding/steps does to a step. */
export const ONBOARDING_STEP_ACTIONS = ["complete", "skip"] as const;
export type OnboardingStepAction = (typeof ONBOARDING_STEP_ACTIONS)[number];
