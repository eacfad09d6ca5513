import { Ctx, Field, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { UsersServices } from "../services.ts";
import { issueKycAccessToken } from "./kyc-access-token.ts";
import { findKycStatus } from "./kyc-status.ts";
import { submitKyc } from "./submit-kyc.ts";
import { AccountStatusEnum } from "../types/enums.ts";

@ObjectType({ description: "A short-lived token for the verification provider's web SDK (POST /v0/kyc/access-token)." })
export class KycAccessToken {
  @Field(() => String, { description: "Pass to the provider's web SDK." })
  token!: string;

  @Field(() => Date, { description: "When the token stops working; ask for a new one then." })
  expires_at!: Date;

  @Field(() => String, { description: "The user's applicant at the provider (created on first call; externalUserId is the user id)." })
  applicant_id!: string;

  @Field(() => String, { description: "The verification provider that holds the applicant." })
  provider!: string;
}

@ObjectType({ description: "Verification status (GET /v0/kyc/status)." })
export class KycStatus {
  @Field(() => AccountStatusEnum, { description: "The account status: pending, in_progress, retry, approved or rejected (spec 3.1)." })
  status!: string;

  @Field(() => String, { nullable: true, description: "The provider applicant; null until an access token was requested." })
  applicant_id!: string | null;

  @Field(() => String, { nullable: true, description: "The provider holding the applicant; null without an applicant." })
  provider!: string | null;

  @Field(() => Date, { description: "When the status last changed (registration at the latest)." })
  updated_at!: Date;

  @Field(() => Boolean, {
    description:
      "True when the status allows submitting documents (pending or retry). Submitting also needs the applicant that kyc_access_token creates.",
  })
  can_submit!: boolean;
}

@Resolver()
export class KycResolver {
  constructor(private readonly services: UsersServices) {}

  @Mutation(() => KycAccessToken, {
    description:
      "POST /v0/kyc/access-token: creates the provider applicant on first use and returns an SDK token. 409 KYC-409-001 when rejected; 502 KYC-502-001 when the provider fails; " +
      "503 KYC-503-001 when no provider is configured (KYC_PROVIDER).",
  })
  kyc_access_token(@Ctx() ctx: RequestContext): Promise<KycAccessToken> {
    const { user_id } = requireUser(ctx.principal, "write");
    const provider = this.services.kyc;
    if (!provider) throw appError("KYC-503-001");
    return issueKycAccessToken(this.services.db, { user_id, provider });
  }

  @Query(() => KycStatus, { description: "GET /v0/kyc/status." })
  kyc_status(@Ctx() ctx: RequestContext): Promise<KycStatus> {
    const { user_id } = requireUser(ctx.principal, "read");
    return findKycStatus(this.services.db, { user_id });
  }

  @Mutation(() => KycStatus, {
    description:
      "POST /v0/kyc/submissions: the user submitted documents in the provider SDK. pending → in_progress (kyc_started) or retry → in_progress (kyc_resubmitted). " +
      "409 KYC-409-002 without an applicant; 409 KYC-409-001 from in_progress, approved or rejected (rejected is terminal).",
  })
  submit_kyc(@Ctx() ctx: RequestContext): Promise<KycStatus> {
    const { user_id } = requireUser(ctx.principal, "write");
    return submitKyc(this.services.db, { user_id });
  }
}
