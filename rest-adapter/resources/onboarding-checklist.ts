import type { RestResource } from "../route-kit/resource-overlay.ts";
import { STEP_STATUS } from "./onboarding-safe.ts";

/** The onboarding checklist in REST (POST /v0/user/me/onboarding/steps), written inline with _links; its body from SubmitOnboardingStepInput. */
export const resource = {
  type: "OnboardingChecklist",
  component: false,
  inputs: { SubmitOnboardingStepInput: "OnboardingStep" },
  types: {
    OnboardingStep: { fields: { step_status: STEP_STATUS } },
  },
} satisfies RestResource;
