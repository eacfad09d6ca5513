import { Arg, Ctx, Field, ID, InputType, Mutation, Query, Resolver } from "type-graphql";
import { requireDashboard } from "../../../lib/auth/authorize.ts";
import { validationError } from "../../../lib/errors/app-error.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { IdentityServices } from "../services.ts";
import { Member } from "../types/member.ts";
import { MEMBER_ROLES, type MemberRole } from "../../../lib/vocabulary/organisations.ts";
import { isOneOf } from "../../../lib/vocabulary/values.ts";
import { addMember, listMembers, removeMember, updateMemberRole } from "./members.ts";

function role(value: string | null | undefined): MemberRole | undefined {
  if (value == null) return undefined;
  if (!isOneOf(MEMBER_ROLES, value)) throw validationError(["role"], "Input should be 'owner', 'admin' or 'member'", value, "enum");
  return value;
}

@InputType()
class AddMemberInput {
  @Field(() => String, { nullable: true, description: "the DASHBOARD_AUTH issuer of the new member's session tokens; default: the caller's" })
  issuer?: string | null;

  @Field(() => String, { description: "the dashboard session token's sub of the new member" })
  sub!: string;

  @Field(() => String, { nullable: true })
  email?: string | null;

  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true, description: "owner, admin or member (default); only owners grant owner" })
  role?: string | null;
}

@InputType()
class UpdateMemberRoleInput {
  @Field(() => String, { description: "owner, admin or member; only owners grant or take away owner" })
  role!: string;
}

@Resolver(() => Member)
export class MemberResolver {
  constructor(private readonly services: IdentityServices) {}

  @Query(() => [Member])
  members(@Arg("org_id", () => ID) orgId: string, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listMembers(this.services.db, requireDashboard(ctx.principal), orgId);
  }

  @Mutation(() => Member)
  add_member(@Arg("org_id", () => ID) orgId: string, @Arg("input", () => AddMemberInput) input: AddMemberInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    return addMember(this.services.db, requireDashboard(ctx.principal), orgId, { ...input, role: role(input.role) ?? null }, this.services.dashboardIssuers);
  }

  @Mutation(() => Member, { description: "PATCH /v0/organisation/{org_id}/members/{member_id}: owners and admins; only owners grant or take away owner; the last owner stays." })
  update_member_role(
    @Arg("org_id", () => ID) orgId: string,
    @Arg("member_id", () => ID) memberId: string,
    @Arg("input", () => UpdateMemberRoleInput) input: UpdateMemberRoleInput,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return updateMemberRole(this.services.db, requireDashboard(ctx.principal), orgId, memberId, role(input.role)!);
  }

  @Mutation(() => Member)
  remove_member(@Arg("org_id", () => ID) orgId: string, @Arg("member_id", () => ID) memberId: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return removeMember(this.services.db, requireDashboard(ctx.principal), orgId, memberId);
  }
}
