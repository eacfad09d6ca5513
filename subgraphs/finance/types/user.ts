import { Directive, Field, ID, ObjectType } from "type-graphql";
import { FinanceWallet } from "./wallet.ts";

/** The users subgraph's User, extended with what finance owns about it. */
@Directive('@key(fields: "id")')
@ObjectType("User")
export class FinanceUser {
  @Field(() => ID)
  id!: string;

  @Directive("@external")
  @Field(() => [FinanceWallet], { description: "The users subgraph's wallets, required by accounts." })
  wallets!: FinanceWallet[];
}
