import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { Directive, Field, Int, ObjectType } from "type-graphql";
import { SafeCreationStatusEnum, WalletRoleEnum, WalletTypeEnum } from "./enums.ts";

/** Spec 2.3. `type` is EOA or Safe; signer rows are key-controlled (EOA) with role "signer". */
@Directive('@key(fields: "id")')
@Directive(AGENT_TAG)
@ObjectType({ description: "A wallet of the user (spec 2.3)." })
export class Wallet {
  @Field(() => Int)
  id!: number;

  @Field(() => WalletTypeEnum, { description: "EOA (key-controlled) or Safe (smart account)." })
  type!: string;

  @Field(() => WalletRoleEnum, { description: "wallet, or signer for an address in the signer set of the user's Safe." })
  role!: string;

  @Field(() => String, { nullable: true, description: "Checksummed address; null while a Safe is being deployed." })
  address!: string | null;

  @Field(() => Int)
  chain_id!: number;

  @Field(() => Boolean)
  is_primary!: boolean;

  @Field(() => String, { nullable: true })
  nickname!: string | null;

  @Field(() => SafeCreationStatusEnum, { nullable: true, description: "Safe wallets: processing, completed or failed." })
  safe_creation_status!: string | null;

  @Field(() => String, { nullable: true })
  safe_creation_event_id!: string | null;

  @Field(() => Int, { nullable: true, description: "Signer rows: the Safe wallet whose signer set holds this address." })
  signer_of_wallet_id!: number | null;

  /** read through WalletResolver.address_verified */
  address_verified_at!: Date | null;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}
