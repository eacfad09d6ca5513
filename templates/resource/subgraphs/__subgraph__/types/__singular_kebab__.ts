import { Field, ID, InputType, ObjectType } from "type-graphql";

@ObjectType({ description: "A __singular_words__ of the user." })
export class __Singular__ {
  @Field(() => ID, { description: "__prefix___<id>" })
  id!: string;

  @Field(() => String, { description: "What the user calls it." })
  name!: string;

  @Field(() => String, { description: "The amount to reach, decimal string in USD." })
  target_amount!: string;

  @Field(() => Date, { nullable: true, description: "When the user means to reach it; null: no date." })
  target_date!: Date | null;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@InputType()
export class Create__Singular__Input {
  @Field(() => String, { description: "1 to 100 characters." })
  name!: string;

  @Field(() => String, { description: "Positive decimal string in USD, at most 2 decimals." })
  target_amount!: string;

  @Field(() => Date, { nullable: true, description: "Optional." })
  target_date?: Date | null;
}

@InputType({ description: "The fields to change; absent: unchanged." })
export class Update__Singular__Input {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  target_amount?: string | null;

  @Field(() => Date, { nullable: true, description: "null removes the date." })
  target_date?: Date | null;
}
