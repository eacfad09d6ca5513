import { Arg, Ctx, Mutation, Query, Resolver } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { UsersServices } from "../services.ts";
import { findOnboardingSafe } from "./onboarding-safe.ts";
import { findOnboardingChecklist, submitOnboardingStep } from "./onboarding-steps.ts";
import { OnboardingChecklist, OnboardingSafe, SubmitOnboardingSafeInput, SubmitOnboardingStepInput } from "./onboarding-types.ts";
import { submitOnboardingSafe } from "./submit-onboarding-safe.ts";

@Resolver()
export class OnboardingResolver {
  constructor(private readonly services: UsersServices) {}

  @Query(() => OnboardingSafe, { description: "GET /v0/user/me/onboarding/safe." })
  onboarding_safe(@Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "read");
    return findOnboardingSafe(this.services.db, { user_id });
  }

  @Mutation(() => OnboardingSafe, {
    description:
      "POST /v0/user/me/onboarding/safe. agent_create2: (re)starts the platform deployment; byo + safe_address: registers an existing Safe as the primary Safe; " +
      "user_signed_deploy + transaction_hash: records the user's own deployment; byo or user_signed_deploy alone: records the choice. " +
      "400 ONB-400-001 (field not of this mode), 400 ONB-400-002 (invalid Safe), 409 ONB-409-001 (Safe deploying or deployed), 502 CHN-502-001 (chain unreachable), 422.",
  })
  async submit_onboarding_safe(@Arg("input", () => SubmitOnboardingSafeInput) input: SubmitOnboardingSafeInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    const result = await submitOnboardingSafe(this.services.db, { user_id, ...input, safeInspector: this.services.safeInspector, limits: this.services.environmentLimits });
    if (result.enqueued) this.services.jobs.wake();
    return result.onboarding;
  }

  @Query(() => OnboardingChecklist, { description: "The onboarding checklist (what POST /v0/user/me/onboarding/steps answers)." })
  onboarding_steps(@Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "read");
    return findOnboardingChecklist(this.services.db, { user_id });
  }

  @Mutation(() => OnboardingChecklist, {
    description: "POST /v0/user/me/onboarding/steps: one action (complete or skip) on one step (safe, phone, kyc); returns the checklist. 400 ONB-400-003, 409 ONB-409-001, KYC-409-*, 422.",
  })
  submit_onboarding_step(@Arg("input", () => SubmitOnboardingStepInput) input: SubmitOnboardingStepInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return submitOnboardingStep(this.services.db, { user_id, name: input.name, action: input.action });
  }
}
