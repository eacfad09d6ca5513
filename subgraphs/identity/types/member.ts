import { Field, ID, ObjectType } from "type-graphql";
import { MemberRoleEnum, MemberStatusEnum } from "./enums.ts";

@ObjectType({ description: "A member of an organisation (spec 2.5): a dashboard user, by the session token's issuer and subject." })
export class Member {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field(() => String, { nullable: true })
  email!: string | null;

  @Field(() => MemberStatusEnum, { description: "active or removed" })
  status!: string;

  @Field(() => MemberRoleEnum, { description: "owner, admin or member" })
  role!: string;

  @Field(() => String, { nullable: true, description: "the dashboard session token's issuer (a DASHBOARD_AUTH issuer); null for a member recorded before issuers were, who matches no token" })
  issuer!: string | null;

  @Field(() => String, { description: "the dashboard session token's sub" })
  sub!: string;

  @Field(() => Date)
  created_at!: Date;
}
