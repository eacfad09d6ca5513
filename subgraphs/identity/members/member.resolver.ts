import { Arg, Ctx, Field, ID, InputType, Mutation, Query, Resolver } from "type-graphql";
import { requireDashboard } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { IdentityServices } from "../services.ts";
import { Member } from "../types/member.ts";
import { addMember, listMembers, removeMember } from "./members.ts";

@InputType()
class AddMemberInput {
  @Field(() => String, { description: "the dashboard session token's sub of the new member" })
  sub!: string;

  @Field(() => String, { nullable: true })
  email?: string | null;

  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true, description: "owner, admin or member (default)" })
  role?: string | null;
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
    return addMember(this.services.db, requireDashboard(ctx.principal), orgId, input);
  }

  @Mutation(() => Member)
  remove_member(@Arg("org_id", () => ID) orgId: string, @Arg("member_id", () => ID) memberId: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return removeMember(this.services.db, requireDashboard(ctx.principal), orgId, memberId);
  }
}
