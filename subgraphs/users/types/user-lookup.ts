import { Field, Int, ObjectType } from "type-graphql";
import { AccountStatusEnum } from "./enums.ts";

@ObjectType({ description: "The full identity record, for identity-service keys with idsvc.get_details." })
export class UserIdentityRecord {
  @Field(() => String)
  auth_provider!: string;

  @Field(() => String)
  auth_provider_id!: string;

  @Field(() => String)
  primary_eoa_address!: string;

  @Field(() => Int)
  primary_chain_id!: number;

  @Field(() => String, { nullable: true })
  phone_number!: string | null;

  @Field(() => Date, { nullable: true })
  phone_verified_at!: Date | null;

  @Field(() => String, { description: "default or <org-id>:<env-id>" })
  environment_id!: string;
}

@ObjectType({ description: "KYC verification status, for identity-service keys with idsvc.get_kyc." })
export class UserKyc {
  @Field(() => AccountStatusEnum, { description: "pending, in_progress, retry, approved or rejected" })
  status!: string;

  @Field(() => Boolean)
  verified!: boolean;

  @Field(() => Date, { description: "when the status last changed" })
  updated_at!: Date;
}
