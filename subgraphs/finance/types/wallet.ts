import { Directive, Field, Int, ObjectType } from "type-graphql";

/**
 * The users subgraph's Wallet, extended with its assets. The users subgraph answers (and
 * authorises) the wallet; its chain and address arrive with the reference (`@external`), so
 * finance never reads the users tables.
 */
@Directive('@key(fields: "id")')
@ObjectType("Wallet")
export class FinanceWallet {
  @Field(() => Int)
  id!: number;

  @Directive("@external")
  @Field(() => Int)
  chain_id!: number;

  @Directive("@external")
  @Field(() => String, { nullable: true })
  address!: string | null;

  @Directive("@external")
  @Field(() => String, { nullable: true })
  nickname!: string | null;
}
