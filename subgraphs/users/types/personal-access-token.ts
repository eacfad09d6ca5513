import { Field, ID, ObjectType } from "type-graphql";
import { PatScopeEnum } from "./enums.ts";

@ObjectType({ description: "A personal access token of the user; the secret itself is shown only at creation." })
export class PersonalAccessToken {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { description: "The token's first characters, to tell tokens apart." })
  token_prefix!: string;

  @Field(() => [PatScopeEnum], { description: "read, write" })
  scopes!: string[];

  @Field(() => Date, { nullable: true })
  expires_at!: Date | null;

  @Field(() => Date, { nullable: true })
  last_used_at!: Date | null;

  @Field(() => Date, { nullable: true })
  revoked_at!: Date | null;

  @Field(() => Date)
  created_at!: Date;
}

@ObjectType()
export class CreatedPersonalAccessToken extends PersonalAccessToken {
  @Field(() => String, { description: "The secret, shown this once; only its hash is stored." })
  token!: string;
}
