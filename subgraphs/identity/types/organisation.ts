import { Field, ID, ObjectType } from "type-graphql";
import { Environment } from "./environment.ts";
import { Member } from "./member.ts";
import { OrganisationStatusEnum } from "./enums.ts";

@ObjectType({ description: "An organisation of the identity service (spec 2.5)." })
export class Organisation {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => OrganisationStatusEnum, { description: "active or suspended" })
  status!: string;

  @Field(() => String, { nullable: true })
  contact_email!: string | null;

  @Field(() => String, { nullable: true })
  dashboard_org_id!: string | null;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => [Member])
  members!: Member[];

  @Field(() => [Environment])
  environments!: Environment[];
}
