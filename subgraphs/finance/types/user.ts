import { Directive, Field, ID, ObjectType } from "type-graphql";
import { Card } from "./card.ts";
import { FinanceWallet } from "./wallet.ts";

/** The users subgraph's User, extended with what finance owns about it. */
@Directive('@key(fields: "id")')
@ObjectType("User")
export class FinanceUser {
  @Field(() => ID)
  id!: string;

  @Field(() => [Card])
  cards!: Card[];

  @Directive("@external")
  @Field(() => [FinanceWallet], { description: "The users subgraph's wallets, required by accounts." })
  wallets!: FinanceWallet[];
}
