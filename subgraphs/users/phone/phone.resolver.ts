import { Arg, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { UsersServices } from "../services.ts";
import { confirmPhoneVerification } from "./confirm-phone-verification.ts";
import { findPhoneState } from "./phone-state.ts";
import { startPhoneVerification } from "./start-phone-verification.ts";

@ObjectType({ description: "A code sent by SMS and waiting to be confirmed." })
export class PhoneVerificationChallenge {
  @Field(() => String, { description: "The number the code was sent to, E.164." })
  phone_number!: string;

  @Field(() => Date, { description: "The code stops working at this instant (ten minutes after sending)." })
  expires_at!: Date;

  @Field(() => Int, { description: "Wrong guesses still allowed for this code (five per code)." })
  attempts_remaining!: number;
}

@ObjectType({ description: "The user's phone: the verified number and any code waiting to be confirmed." })
export class PhoneState {
  @Field(() => String, { nullable: true, description: "The verified number (E.164); null until one is verified." })
  phone_number!: string | null;

  @Field(() => Boolean)
  verified!: boolean;

  @Field(() => Date, { nullable: true })
  verified_at!: Date | null;

  @Field(() => PhoneVerificationChallenge, { nullable: true, description: "The newest code, while it can still be confirmed." })
  pending!: PhoneVerificationChallenge | null;
}

@Resolver()
export class PhoneResolver {
  constructor(private readonly services: UsersServices) {}

  @Query(() => PhoneState, { description: "The user's phone state." })
  phone(@Ctx() ctx: RequestContext): Promise<PhoneState> {
    const { user_id } = requireUser(ctx.principal, "read");
    return findPhoneState(this.services.db, { user_id });
  }

  @Mutation(() => PhoneVerificationChallenge, {
    description:
      "Step one: sends a 6-digit code by SMS to phone_number (E.164, else 422), valid ten minutes; a new code supersedes earlier ones. " +
      "At most five codes per user and hour: 429 PHN-429-001 with Retry-After. SMS failure: 502 PHN-502-001, nothing stored. " +
      "No SMS provider configured (SMS_PROVIDER): 503 PHN-503-001.",
  })
  start_phone_verification(@Arg("phone_number", () => String) phone_number: string, @Ctx() ctx: RequestContext): Promise<PhoneVerificationChallenge> {
    const { user_id } = requireUser(ctx.principal, "write");
    const sms = this.services.sms;
    if (!sms) throw appError("PHN-503-001");
    return startPhoneVerification(this.services.db, { user_id, phone_number, sms, key: this.services.phoneCodeKey });
  }

  @Mutation(() => PhoneState, {
    description:
      "Step two: confirms the code; sets the user's phone_number. Wrong code: 400 PHN-400-001 (attempts remaining in detail); " +
      "expired or five wrong attempts: 410 PHN-410-001; no code pending: 404 PHN-404-001; not six digits: 422.",
  })
  confirm_phone_verification(@Arg("code", () => String) code: string, @Ctx() ctx: RequestContext): Promise<PhoneState> {
    const { user_id } = requireUser(ctx.principal, "write");
    return confirmPhoneVerification(this.services.db, { user_id, code, key: this.services.phoneCodeKey });
  }
}
