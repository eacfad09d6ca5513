import { PAT_SCOPES } from "../../../lib/auth/personal-access-token.ts";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { ACCOUNT_STATUSES } from "../../../lib/vocabulary/kyc.ts";
import { ONBOARDING_SAFE_MODES, ONBOARDING_STEP_ACTIONS, ONBOARDING_STEPS, STEP_STATUSES } from "../../../lib/vocabulary/onboarding.ts";
import { SAFE_CREATION_STATUSES, WALLET_ROLES, WALLET_TYPES } from "../../../lib/vocabulary/wallets.ts";

/** The users subgraph's output enums, one per vocabulary list (see lib/graphql/enums.ts). */
export const WalletTypeEnum = graphqlEnum(WALLET_TYPES, "WalletType", "EOA (key-controlled) or Safe (smart account).");
export const WalletRoleEnum = graphqlEnum(WALLET_ROLES, "WalletRole", "wallet, or signer for an address in the signer set of the user's Safe.");
export const SafeCreationStatusEnum = graphqlEnum(SAFE_CREATION_STATUSES, "SafeCreationStatus", "Safe creation state (spec 3.2).");
export const AccountStatusEnum = graphqlEnum(ACCOUNT_STATUSES, "AccountStatus", "The user's account status, which is its KYC status (spec 3.1).");
export const StepStatusEnum = graphqlEnum(
  STEP_STATUSES,
  "OnboardingStepStatus",
  "not_started (nothing happened yet; the user starts it), awaiting_user (prepared, waiting for the user's action), " +
    "processing (the platform or a provider is working; poll), completed, failed (the last attempt failed; act again, or terminal for a rejected KYC), " +
    "skipped (an optional step the user skipped).",
);
export const OnboardingSafeModeEnum = graphqlEnum(ONBOARDING_SAFE_MODES, "OnboardingSafeMode", "How the user's Safe comes to be (spec 2.4).");
export const OnboardingStepNameEnum = graphqlEnum(ONBOARDING_STEPS, "OnboardingStepName", "The onboarding steps, in the order a client walks them.");
export const OnboardingStepActionEnum = graphqlEnum(ONBOARDING_STEP_ACTIONS, "OnboardingStepAction", "What POST /v0/user/me/onboarding/steps does to a step: complete or skip.");
export const PatScopeEnum = graphqlEnum(PAT_SCOPES, "PersonalAccessTokenScope", "What a personal access token may do: read, or also write.");
