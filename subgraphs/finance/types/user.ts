import { Directive, Field, ID, ObjectType } from "type-graphql";
import { Card } from "./card.ts";

/** The users subgraph's User, extended with what finance owns about it. */
@Directive('@key(fields: "id")')
@ObjectType("User")
export class FinanceUser {
  @Field(() => ID)
  id!: string;

  @Field(() => [Card])
  cards!: Card[];
}
