import { Directive, Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { RAMP_DIRECTIONS } from "../../../lib/vocabulary/bank-accounts.ts";

export const RampDirectionEnum = graphqlEnum(RAMP_DIRECTIONS, "RampDirection", "on (bank account → wallet) or off (wallet → bank account).");

/** The terms a quote fixes and its ramp keeps: type-graphql gives these fields to each subclass. */
@ObjectType({ description: "The terms of a ramp: what a quote fixes and its ramp keeps." })
class RampTerms {
  @Field(() => String, { description: "on (bank account → wallet) or off (wallet → bank account)" })
  direction!: string;

  @Field(() => String)
  bank_account_id!: string;

  @Field(() => Int)
  wallet_id!: number;

  @Field(() => Int)
  chain_id!: number;

  @Field(() => String, { description: "The crypto asset's symbol." })
  asset!: string;

  @Field(() => String, { description: "The asset the wallet receives (on) or sends (off), a decimal string in asset units." })
  asset_amount!: string;

  @Field(() => String, { description: "The bank account's currency (ISO 4217)." })
  currency!: string;

  @Field(() => String, { description: "The fiat the bank account pays (on, fee included) or receives (off, fee taken)." })
  fiat_amount!: string;

  @Field(() => String, { description: "Fiat per whole unit of the asset." })
  rate!: string;

  @Field(() => String, { description: "The provider's fee in fiat, already in fiat_amount." })
  fee!: string;
}

@ObjectType({ description: "A price for moving money between a linked bank account and a wallet; carried out at most once, before expires_at." })
export class RampQuote extends RampTerms {
  @Field(() => ID, { description: "rmq_<id>" })
  id!: string;

  @Field(() => Date)
  expires_at!: Date;

  @Field(() => Date)
  created_at!: Date;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "An on- or off-ramp: a quote the banking provider carries out. Its status is its ledger transaction's (spec 3.4)." })
export class Ramp extends RampTerms {
  @Field(() => ID, { description: "rmp_<id>" })
  id!: string;

  @Field(() => String)
  quote_id!: string;

  @Field(() => String, { description: "pending, processing, completed or failed (spec 3.4)" })
  status!: string;

  @Field(() => String, { description: "The on_ramp or off_ramp transaction in the feed." })
  transaction_id!: string;

  @Field(() => String, { nullable: true, description: "Why the provider failed it." })
  failure_reason!: string | null;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@InputType({ description: "Internal (the REST adapter's banking webhook receiver): a verified provider event." })
export class BankingProviderEventInput {
  @Field(() => String)
  event_id!: string;

  @Field(() => String)
  type!: string;

  @Field(() => String, { nullable: true })
  item_id?: string | null;

  @Field(() => String, { nullable: true })
  ramp_id?: string | null;

  @Field(() => String, { nullable: true })
  reason?: string | null;
}

@ObjectType({ description: "What a banking-provider event did." })
export class BankingProviderEventResult {
  @Field(() => String, { description: "applied, ignored (an illegal move, recorded), no_op (unknown reference or type) or duplicate" })
  outcome!: string;

  @Field(() => String)
  detail!: string;
}

@ObjectType({ description: "Sandbox: what the sandbox provider did and how the platform's webhook receiver answered it." })
export class BankingSandboxDelivery {
  @Field(() => Int, { description: "The HTTP status of the receiver's answer (200: handled)." })
  webhook_status!: number;

  @Field(() => String, { nullable: true, description: "The bank transaction's id in the ledger, when one was made or changed." })
  transaction_id!: string | null;

  @Field(() => String, { nullable: true, description: "How a ramp ended (completed or failed)." })
  outcome!: string | null;
}
