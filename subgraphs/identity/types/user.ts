import { Directive, Field, ID, Int, ObjectType } from "type-graphql";
import { PintMandate } from "./pint.ts";

@ObjectType({ description: "The PINTs a key's organisation holds for a user (GET /v0/users/{sri} with idsvc.get_pints)." })
export class UserPints {
  @Field(() => Int, { description: "mandates neither revoked nor expired" })
  active_count!: number;

  @Field(() => [PintMandate], { description: "the active mandates, newest first" })
  active!: unknown[];
}

/** The users subgraph's User, extended with what identity owns about it: PINT balances. */
@Directive('@key(fields: "id")')
@ObjectType("User")
export class IdentityUser {
  @Field(() => ID)
  id!: string;

  @Field(() => UserPints, { nullable: true, description: "With idsvc.get_pints (identity lookup); null otherwise." })
  pints!: UserPints | null;
}
