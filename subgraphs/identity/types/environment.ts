import { Field, ID, ObjectType } from "type-graphql";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import { EnvironmentKindEnum } from "./enums.ts";

@ObjectType({ description: "Provider credentials of the environment; secrets are never returned." })
export class EnvironmentCredentials {
  @Field(() => String)
  environment_id!: string;

  @Field(() => String, { nullable: true, description: "always null: keys are shown once, at mint" })
  api_key!: string | null;
}

@ObjectType({ description: "Which identity providers the environment's users sign in with (spec 2.5)." })
export class EnvironmentAuth {
  @Field(() => String, { nullable: true, description: "the first provider's name (provider_a, provider_b or siwe)" })
  provider!: string | null;

  @Field(() => [String], { description: "every active provider's name" })
  providers!: string[];

  @Field(() => [JSONObjectScalar], { description: "the providers as set: AUTH_PROVIDERS-shaped {name, issuer, jwks_uri | public_key, audience, mode}" })
  provider_configs!: Record<string, unknown>[];

  @Field(() => Boolean)
  is_active!: boolean;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;

  @Field(() => EnvironmentCredentials)
  credentials!: EnvironmentCredentials;
}

@ObjectType({ description: "A feature toggle of an environment (spec 2.5)." })
export class Feature {
  @Field(() => String)
  name!: string;

  @Field(() => Boolean)
  enabled!: boolean;

  @Field(() => JSONObjectScalar)
  config!: Record<string, unknown>;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@ObjectType({ description: "An environment of an organisation (spec 2.5)." })
export class Environment {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String, { nullable: true })
  label!: string | null;

  @Field(() => EnvironmentKindEnum, { description: "live (production) or test: shown in its keys' prefix" })
  kind!: string;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;

  @Field(() => EnvironmentAuth)
  auth!: EnvironmentAuth;

  @Field(() => [Feature])
  features!: Feature[];
}
