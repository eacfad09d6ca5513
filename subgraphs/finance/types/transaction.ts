import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { Directive, Field, ID, Int, ObjectType } from "type-graphql";
import { SpendingCategoryEnum, TransactionDirectionEnum, TransactionStatusEnum, TransactionTypeEnum } from "./transaction-enums.ts";

@Directive(AGENT_TAG)
@ObjectType({ description: "The crypto asset a transaction moved.", simpleResolvers: true })
export class TransactionAsset {
  @Field(() => String)
  symbol!: string;

  @Field(() => Int)
  decimals!: number;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "The merchant of a card purchase or refund, where known.", simpleResolvers: true })
export class TransactionMerchant {
  @Field(() => String, { nullable: true })
  name!: string | null;

  @Field(() => String, { nullable: true, description: "ISO 18245 merchant category code" })
  mcc!: string | null;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "One status change (status_history); the first has from null.", simpleResolvers: true })
export class TransactionStatusChange {
  @Field(() => TransactionStatusEnum, { nullable: true })
  from!: string | null;

  @Field(() => TransactionStatusEnum)
  to!: string;

  @Field(() => Date)
  changed_at!: Date;
}

@Directive(AGENT_TAG)
// simpleResolvers: plain data fields read by graphql-js's default resolver, without type-graphql's
// per-field wrapper (a feed page is fifty of these, each twenty-odd fields: issue 30)
@ObjectType({ description: "One movement of money in the ledger (spec 2.10, 3.4).", simpleResolvers: true })
export class Transaction {
  @Field(() => ID, { description: "txn_<id>" })
  id!: string;

  @Field(() => TransactionTypeEnum)
  type!: string;

  @Field(() => TransactionStatusEnum)
  status!: string;

  @Field(() => TransactionDirectionEnum)
  direction!: string;

  @Field(() => String, { description: "Decimal string in asset units (0.1 ETH is \"0.1\"), always positive; direction gives the sign." })
  amount!: string;

  @Field(() => TransactionAsset, { nullable: true, description: "The crypto asset; null for fiat (see currency)." })
  asset!: TransactionAsset | null;

  @Field(() => String, { nullable: true, description: "ISO 4217 code of a fiat movement; null for crypto." })
  currency!: string | null;

  @Field(() => String, { nullable: true, description: "USD value at the price of its time, decimal string; null while no price is known." })
  amount_usd!: string | null;

  @Field(() => SpendingCategoryEnum, { nullable: true })
  category!: string | null;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => TransactionMerchant, { nullable: true })
  merchant!: TransactionMerchant | null;

  @Field(() => Int, { nullable: true, description: "The source: a wallet of the user ..." })
  wallet_id!: number | null;

  @Field(() => String, { nullable: true, description: "... a card ..." })
  card_id!: string | null;

  @Field(() => String, { nullable: true, description: "... or a bank account." })
  bank_account_id!: string | null;

  @Field(() => String, { nullable: true, description: "The other party: an address, an account or a name." })
  counterparty!: string | null;

  @Field(() => Int, { nullable: true })
  chain_id!: number | null;

  @Field(() => String, { nullable: true })
  tx_hash!: string | null;

  @Field(() => String, { nullable: true, description: "The user's own note (PATCH)." })
  note!: string | null;

  @Field(() => Date, { description: "When the movement happened." })
  timestamp!: Date;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;

  @Field(() => [TransactionStatusChange])
  status_history!: TransactionStatusChange[];
}
