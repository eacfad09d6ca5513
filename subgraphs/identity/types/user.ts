import { Directive, Field, ID, ObjectType } from "type-graphql";

/** The users subgraph's User as identity sees it: a key only, resolved through federation. */
@Directive('@key(fields: "id", resolvable: false)')
@ObjectType("User")
export class IdentityUser {
  @Field(() => ID)
  id!: string;
}
