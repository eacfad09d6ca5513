import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Resolver } from "type-graphql";
import { requireInternal, requireUser } from "../../../lib/auth/authorize.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { UsersServices } from "../services.ts";
import { applyKycProviderEvent, type KycProviderTrigger } from "./kyc-provider-event.ts";
import { SANDBOX_KYC_DECISIONS } from "../../../lib/vocabulary/kyc.ts";
import { isOneOf } from "../../../lib/vocabulary/values.ts";
import { SandboxKycProvider } from "./sandbox-kyc-provider.ts";
import { AccountStatusEnum } from "../types/enums.ts";

@InputType({ description: "Internal (REST adapter's KYC webhook receiver): a verified provider event." })
export class KycProviderEventInput {
  @Field(() => String, { description: "The de-duplication key (a digest of the verified body)." })
  event_id!: string;

  @Field(() => String, { description: "The provider's event type: applicantReviewed, applicantPending, or any other (a no-op)." })
  type!: string;

  @Field(() => String, { description: "The provider's applicant id (created by kyc_access_token)." })
  applicant_id!: string;

  @Field(() => String, { nullable: true, description: "The provider's externalUserId: our user id." })
  external_user_id?: string | null;

  @Field(() => String, { nullable: true, description: "reviewResult.reviewAnswer: GREEN or RED (applicantReviewed)." })
  review_answer?: string | null;
}

@ObjectType({ description: "What a provider event did." })
export class KycProviderEventResult {
  @Field(() => String, { description: "applied, ignored (recorded, not applied), duplicate, unknown_applicant, user_mismatch or unsupported_event." })
  outcome!: string;

  @Field(() => AccountStatusEnum, { nullable: true, description: "The account status after the event; null when no user was matched." })
  status!: string | null;
}

@ObjectType({ description: "The sandbox provider's decision and its webhook delivery (POST /v0/kyc/sandbox/decision)." })
export class KycSandboxDecision {
  @Field(() => String, { description: "GREEN, RED or PENDING." })
  answer!: string;

  @Field(() => String, { description: "applicantReviewed (GREEN, RED) or applicantPending (PENDING)." })
  event_type!: string;

  @Field(() => String)
  applicant_id!: string;

  @Field(() => Int, { description: "The HTTP status the platform's KYC webhook receiver answered." })
  webhook_status!: number;

  @Field(() => String, { description: "The account status after the delivery." })
  status!: string;
}

/** Spec 6: applicantReviewed GREEN/RED and applicantPending; every other event type is a no-op. */
export function kycTriggerOf(type: string, reviewAnswer: string | null | undefined): KycProviderTrigger | null {
  if (type === "applicantReviewed" && reviewAnswer === "GREEN") return "kyc_approved";
  if (type === "applicantReviewed" && reviewAnswer === "RED") return "kyc_rejected";
  if (type === "applicantPending") return "kyc_retry_requested";
  return null;
}

@Resolver()
export class KycProviderEventResolver {
  constructor(private readonly services: UsersServices) {}

  @Mutation(() => KycProviderEventResult, {
    description:
      "Internal (the REST adapter's KYC webhook receiver only): applies a verified provider event through the state table of spec 3.1. " +
      "Disallowed moves are recorded as ignored status_history rows; replays, unknown applicants, externalUserId mismatches and other event types are no-ops.",
  })
  async apply_kyc_provider_event(@Arg("input", () => KycProviderEventInput) input: KycProviderEventInput, @Ctx() ctx: RequestContext): Promise<KycProviderEventResult> {
    requireInternal(ctx.principal, "rest-adapter");
    const trigger = kycTriggerOf(input.type, input.review_answer);
    if (trigger === null) return { outcome: "unsupported_event", status: null };
    const result = await applyKycProviderEvent(this.services.db, {
      applicant_id: input.applicant_id,
      event_id: input.event_id,
      trigger,
      external_user_id: input.external_user_id ?? null,
    });
    if (result.outcome === "user_mismatch") {
      this.services.logger.warn({ event_id: input.event_id, applicant_id: input.applicant_id }, "KYC provider event: externalUserId is not the applicant's user; ignored");
    }
    const status = "user_id" in result ? (await this.services.db.user.findUnique({ where: { id: result.user_id }, select: { status: true } }))?.status ?? null : null;
    return { outcome: result.outcome, status };
  }

  @Mutation(() => KycSandboxDecision, {
    description:
      "POST /v0/kyc/sandbox/decision (sandbox mode and the sandbox provider only): the sandbox provider decides the user's review and POSTs the webhook " +
      "(applicantReviewed GREEN/RED or applicantPending), signed with its own secret, to the platform's KYC receiver. 404 unless the sandbox provider is active; " +
      "409 KYC-409-002 without an applicant; 502 KYC-502-001 when the delivery fails.",
  })
  async kyc_sandbox_decision(@Arg("answer", () => String) answer: string, @Ctx() ctx: RequestContext): Promise<KycSandboxDecision> {
    const { user_id } = requireUser(ctx.principal, "write");
    const provider = this.services.kyc;
    if (!(provider instanceof SandboxKycProvider)) throw appError("GEN-404-001", "Sandbox decisions exist only while the sandbox KYC provider is active.");
    if (!isOneOf(SANDBOX_KYC_DECISIONS, answer)) throw appError("GEN-400-001", "answer must be GREEN, RED or PENDING.");
    const applicant = await this.services.db.kycApplicant.findUnique({ where: { user_id }, select: { applicant_id: true } });
    if (!applicant) throw appError("KYC-409-002");
    let delivery;
    try {
      delivery = await provider.decide({ user_id, applicant_id: applicant.applicant_id, decision: answer });
    } catch (error) {
      throw appError("KYC-502-001", "The sandbox provider could not deliver its decision webhook to PUBLIC_BASE_URL.", { cause: error });
    }
    if (delivery.webhook_status !== 200) throw appError("KYC-502-001", `The platform's KYC webhook receiver answered ${delivery.webhook_status} to the sandbox decision.`);
    const user = await this.services.db.user.findUniqueOrThrow({ where: { id: user_id }, select: { status: true } });
    return { answer, event_type: delivery.event_type, applicant_id: applicant.applicant_id, webhook_status: delivery.webhook_status, status: user.status };
  }
}
