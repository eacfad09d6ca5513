import { Field, ID, ObjectType } from "type-graphql";
import { KeyPartitionEnum } from "./enums.ts";

@ObjectType()
export class ApiKeyMeta {
  @Field(() => String)
  org_id!: string;

  @Field(() => String)
  env_id!: string;
}

@ObjectType({ description: "An API key (spec 2.6); the secret is shown only in the mint response." })
export class ApiKey {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => KeyPartitionEnum, { description: "server or public, fixed at mint" })
  partition!: string;

  @Field(() => [String])
  scopes!: string[];

  @Field(() => ApiKeyMeta)
  meta!: ApiKeyMeta;

  @Field(() => String, { description: "the key's first characters: prefix, partition and environment kind" })
  key_prefix!: string;

  @Field(() => String)
  key_last_four!: string;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date, { nullable: true })
  last_used_at!: Date | null;

  @Field(() => Date, { nullable: true })
  revoked_at!: Date | null;
}

@ObjectType()
export class MintedApiKey extends ApiKey {
  @Field(() => String, { description: "The secret, shown this once; only its hash is stored." })
  key!: string;
}
