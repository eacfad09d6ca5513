import { appError } from "../../../lib/errors/app-error.ts";
import type { UsersDb, UsersTx } from "../db.ts";
import { submitKyc } from "../kyc/submit-kyc.ts";
import { findPhoneState } from "../phone/phone-state.ts";
import type { AccountStatus } from "../../../lib/vocabulary/kyc.ts";
import type { OnboardingStepAction, OnboardingStepName, StepStatus } from "../../../lib/vocabulary/onboarding.ts";
import { findOnboardingSafe } from "./onboarding-safe.ts";
import { isStepRequired, kycStepStatus, phoneStepStatus } from "./step-status.ts";

export const SKIPPABLE_STEPS: readonly OnboardingStepName[] = ["phone"];

export interface OnboardingStepView {
  name: OnboardingStepName;
  step_status: StepStatus;
  required: boolean;
  skippable: boolean;
}

export interface OnboardingChecklistView {
  steps: OnboardingStepView[];
}

function step(name: OnboardingStepName, step_status: StepStatus): OnboardingStepView {
  return { name, step_status, required: isStepRequired(step_status), skippable: SKIPPABLE_STEPS.includes(name) };
}

/** The user's onboarding checklist: each step's status and whether it is still required. */
export async function findOnboardingChecklist(db: UsersTx, options: { user_id: string; now?: Date }): Promise<OnboardingChecklistView> {
  const user = await db.user.findUnique({
    where: { id: options.user_id },
    select: { status: true, onboarding_skipped_steps: true, kyc_applicant: { select: { applicant_id: true } } },
  });
  if (!user) throw appError("USR-404-001");
  const safe = await findOnboardingSafe(db, { user_id: options.user_id });
  const phone = await findPhoneState(db, { user_id: options.user_id, ...(options.now && { now: options.now }) });
  return {
    steps: [
      step("safe", safe.step_status),
      step("phone", phoneStepStatus({ verified: phone.verified, skipped: user.onboarding_skipped_steps.includes("phone"), codePending: phone.pending !== null })),
      step("kyc", kycStepStatus(user.status as AccountStatus, user.kyc_applicant !== null)),
    ],
  };
}

/**
 * POST /v0/user/me/onboarding/steps, body `{ name, action }`:
 * - `skip` (optional steps only, i.e. `phone`; others ONB-400-003): the step becomes `skipped` and
 *   stops being required. Skipping twice is harmless; skipping a completed step is ONB-409-001.
 *   Verifying the phone later still completes it.
 * - `complete`: the user says they finished the step in the client; it is recorded only when the
 *   step's own state allows. `kyc`: documents were submitted in the provider SDK, the same
 *   transition as submit_kyc (its KYC-409 errors). `phone` and `safe` complete through their own
 *   flows (confirm_phone_verification, submit_onboarding_safe): `complete` succeeds when that
 *   already happened (for phone it also clears a skip) and is ONB-409-001 otherwise.
 * Returns the checklist.
 */
export async function submitOnboardingStep(db: UsersDb, options: { user_id: string; name: OnboardingStepName; action: OnboardingStepAction }): Promise<OnboardingChecklistView> {
  const { user_id, name, action } = options;

  if (action === "skip") {
    if (!SKIPPABLE_STEPS.includes(name)) throw appError("ONB-400-003", `The ${name} step is required and cannot be skipped.`);
    return db.$transaction(async (tx) => {
      const current = (await findOnboardingChecklist(tx, { user_id })).steps.find((s) => s.name === name)!;
      if (current.step_status === "completed") throw appError("ONB-409-001", `The ${name} step is already completed.`);
      if (current.step_status !== "skipped") await tx.user.update({ where: { id: user_id }, data: { onboarding_skipped_steps: { push: name } } });
      return findOnboardingChecklist(tx, { user_id });
    });
  }

  if (name === "kyc") {
    await submitKyc(db, { user_id });
    return findOnboardingChecklist(db, { user_id });
  }
  return db.$transaction(async (tx) => {
    const current = (await findOnboardingChecklist(tx, { user_id })).steps.find((s) => s.name === name)!;
    if (current.step_status !== "completed")
      throw appError(
        "ONB-409-001",
        name === "phone"
          ? "The phone step completes when a code is confirmed (confirm_phone_verification); it is not completed yet."
          : "The Safe step completes when the Safe is deployed or submitted (POST /v0/user/me/onboarding/safe); it is not completed yet.",
      );
    const user = await tx.user.findUniqueOrThrow({ where: { id: user_id }, select: { onboarding_skipped_steps: true } });
    if (user.onboarding_skipped_steps.includes(name))
      await tx.user.update({ where: { id: user_id }, data: { onboarding_skipped_steps: user.onboarding_skipped_steps.filter((s) => s !== name) } });
    return findOnboardingChecklist(tx, { user_id });
  });
}
