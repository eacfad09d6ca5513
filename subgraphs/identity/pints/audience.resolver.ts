import { Arg, Ctx, Field, ID, InputType, Mutation, Query, Resolver } from "type-graphql";
import { requireDashboard } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { IdentityServices } from "../services.ts";
import { PintAudience } from "../types/pint.ts";
import { listAudiences, registerAudience, removeAudience } from "./audiences.ts";

@InputType()
class RegisterPintAudienceInput {
  @Field(() => String, { description: "the third-party identifier (com.example.app, https://app.example.com); mandates name it as <org_id>:<identifier>" })
  identifier!: string;

  @Field(() => String, { nullable: true })
  name?: string | null;
}

@Resolver(() => PintAudience)
export class PintAudienceResolver {
  constructor(private readonly services: IdentityServices) {}

  @Query(() => [PintAudience], { description: "GET /v0/organisation/{org_id}/audiences" })
  pint_audiences(@Arg("org_id", () => ID) orgId: string, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listAudiences(this.services.db, requireDashboard(ctx.principal), orgId);
  }

  @Mutation(() => PintAudience, { description: "POST /v0/organisation/{org_id}/audiences: owners and admins register a third-party identifier." })
  register_pint_audience(
    @Arg("org_id", () => ID) orgId: string,
    @Arg("input", () => RegisterPintAudienceInput) input: RegisterPintAudienceInput,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return registerAudience(this.services.db, requireDashboard(ctx.principal), orgId, input);
  }

  @Mutation(() => Boolean, { description: "DELETE /v0/organisation/{org_id}/audiences/{audience_id}: removes it and revokes its mandates." })
  remove_pint_audience(@Arg("org_id", () => ID) orgId: string, @Arg("audience_id", () => ID) audienceId: string, @Ctx() ctx: RequestContext): Promise<boolean> {
    return removeAudience(this.services.db, requireDashboard(ctx.principal), orgId, audienceId);
  }
}
