import { Field, ID, ObjectType } from "type-graphql";

@ObjectType({ description: "An agent task (spec 3.5)." })
export class AgentTask {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  title!: string;

  @Field(() => String, { description: "queued, next, running, completed, failed or cancelled" })
  status!: string;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}
