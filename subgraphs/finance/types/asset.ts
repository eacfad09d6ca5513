import { Field, ID, Int, ObjectType } from "type-graphql";

@ObjectType({ description: "A crypto or fiat asset (spec 2.10)." })
export class Asset {
  @Field(() => ID)
  id!: string;

  @Field(() => String, { description: "crypto or fiat" })
  asset_type!: string;

  @Field(() => String)
  symbol!: string;

  @Field(() => String)
  name!: string;

  @Field(() => Int)
  decimals!: number;

  @Field(() => Int, { nullable: true })
  chain_id!: number | null;

  @Field(() => String, { nullable: true })
  contract_address!: string | null;
}
