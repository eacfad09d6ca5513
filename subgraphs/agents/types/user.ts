import { Directive, Field, ID, ObjectType } from "type-graphql";

/** The users subgraph's User, extended with what agents owns about it (its fields: the resolvers). */
@Directive('@key(fields: "id")')
@ObjectType("User")
export class AgentsUser {
  @Field(() => ID)
  id!: string;
}
