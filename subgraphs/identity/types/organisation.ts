import { Field, ID, ObjectType } from "type-graphql";

@ObjectType({ description: "An organisation of the identity service (spec 2.5)." })
export class Organisation {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  status!: string;

  @Field(() => String, { nullable: true })
  contact_email!: string | null;

  @Field(() => String, { nullable: true })
  dashboard_org_id!: string | null;

  @Field(() => Date)
  created_at!: Date;
}
