import { Field, ID, ObjectType } from "type-graphql";

@ObjectType({ description: "A card of the user (spec 2.10, 3.3); details only via secure endpoints." })
export class Card {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: "virtual or physical" })
  type!: string;

  @Field(() => String, { description: "pending, active, suspended or closed" })
  status!: string;

  @Field(() => String)
  last_four!: string;

  @Field(() => Date)
  created_at!: Date;
}
