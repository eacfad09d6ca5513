import { AgentTool } from "../../../lib/graphql/agent-tag.ts";
import { Directive, Field, ID, Int, ObjectType } from "type-graphql";
import { StatusChange } from "./status-change.ts";
import { Wallet } from "./wallet.ts";
import { AccountStatusEnum, SafeCreationStatusEnum } from "./enums.ts";

@Directive('@key(fields: "id")')
@ObjectType({ description: "A platform user (spec 2.2)." })
export class User {
  @AgentTool()
  @Field(() => ID, { description: "usr_<id>" })
  id!: string;

  @Field(() => String, { description: "provider_a, provider_b or siwe: the issuer of the JWT the user registered with." })
  auth_provider!: string;

  @Field(() => String)
  auth_provider_id!: string;

  @Field(() => AccountStatusEnum, { description: "pending, in_progress, retry, approved or rejected." })
  status!: string;

  @Field(() => String)
  primary_eoa_address!: string;

  @Field(() => Int, { description: "Chain of the primary EOA and primary Safe." })
  primary_chain_id!: number;

  @Field(() => SafeCreationStatusEnum, { nullable: true, description: "processing, completed or failed; null when the user has no primary Safe." })
  safe_creation_status!: string | null;

  @Field(() => String, { nullable: true, description: "Verified phone number (E.164)." })
  phone_number!: string | null;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;

  @Field(() => [Wallet], { description: "EOA and Safe wallets; signer-only addresses are omitted." })
  wallets!: Wallet[];

  @Field(() => [StatusChange])
  status_history!: StatusChange[];
}
