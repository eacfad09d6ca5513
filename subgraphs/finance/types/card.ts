import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { Directive, Field, ID, InputType, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import { CARD_FUNDING_SOURCE_TYPES, CARD_STATUSES, CARD_TYPES, type CardFundingSourceType, type CardStatus, type CardType } from "../../../lib/vocabulary/cards.ts";
import { FinanceWallet } from "./wallet.ts";

export const CardTypeEnum = graphqlEnum(CARD_TYPES, "CardType", "virtual or physical (spec 2.10).");
export const CardStatusEnum = graphqlEnum(CARD_STATUSES, "CardStatus", "pending → active ⇄ suspended → closed (spec 3.3).");
export const CardFundingSourceTypeEnum = graphqlEnum(CARD_FUNDING_SOURCE_TYPES, "CardFundingSourceType", "What a card spends from (spec 2.10).");

@Directive(AGENT_TAG)
@ObjectType({ description: "Spec 2.10's card controls; limits are decimal strings in the card's currency, null when not set." })
export class CardControls {
  @Field(() => String, { nullable: true })
  daily_limit!: string | null;

  @Field(() => String, { nullable: true })
  monthly_limit!: string | null;

  @Field(() => String, { nullable: true })
  single_transaction_limit!: string | null;

  @Field(() => [String], { description: "Only these merchant category codes are allowed; empty: any." })
  allowed_mcc!: string[];

  @Field(() => [String], { description: "These merchant category codes are declined." })
  blocked_mcc!: string[];
}

@Directive(AGENT_TAG)
@ObjectType({ description: "How much of a limit the current period has used: approved and settled purchases, decimal strings." })
export class CardLimitUsage {
  @Field(() => String, { nullable: true })
  limit!: string | null;

  @Field(() => String)
  spent!: string;

  @Field(() => String, { nullable: true, description: "limit − spent, never below 0; null without a limit." })
  remaining!: string | null;

  @Field(() => Date)
  period_start!: Date;

  @Field(() => Date)
  period_end!: Date;
}

@Directive(AGENT_TAG)
@ObjectType()
export class CardUsage {
  @Field(() => String, { description: "The IANA zone of the card holder's days and months (GET /v0/budgets/settings)." })
  time_zone!: string;

  @Field(() => CardLimitUsage)
  daily!: CardLimitUsage;

  @Field(() => CardLimitUsage)
  monthly!: CardLimitUsage;

  @Field(() => String, { nullable: true })
  single_transaction_limit!: string | null;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "What the card spends from; `wallet` is the users subgraph's Wallet for crypto_wallet sources." })
export class CardFundingSource {
  @Field(() => CardFundingSourceTypeEnum)
  type!: CardFundingSourceType;

  @Field(() => String, { description: "The wallet id (crypto_wallet) or bank account id." })
  id!: string;

  @Field(() => FinanceWallet, { nullable: true })
  wallet!: FinanceWallet | null;
}

@Directive(AGENT_TAG)
@ObjectType()
export class CardStatusChange {
  @Field(() => CardStatusEnum, { nullable: true })
  from!: CardStatus | null;

  @Field(() => CardStatusEnum)
  to!: CardStatus;

  @Field(() => Date)
  changed_at!: Date;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "A card of the user (spec 2.10, 3.3). Its number, CVV and expiry are never here: only the secure-details reveal answers them." })
export class Card {
  @Field(() => ID, { description: "crd_<id>" })
  id!: string;

  @Field(() => CardTypeEnum)
  type!: CardType;

  @Field(() => CardStatusEnum)
  status!: CardStatus;

  @Field(() => String, { nullable: true })
  nickname!: string | null;

  @Field(() => String, { description: "USD or EUR; a crypto wallet settles it in USDC or EURC, one to one." })
  currency!: string;

  @Field(() => String)
  last_four!: string;

  @Field(() => CardFundingSource)
  funding_source!: CardFundingSource;

  @Field(() => CardControls)
  controls!: CardControls;

  @Field(() => CardUsage)
  usage!: CardUsage;

  @Field(() => JSONObjectScalar, { nullable: true, description: "Physical cards: where it was shipped." })
  shipping_address!: Record<string, unknown> | null;

  @Field(() => [CardStatusChange])
  status_history!: CardStatusChange[];

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@InputType({ description: "Absent: unchanged; null: cleared. Limits are positive decimal strings in the card's currency (cents at most); MCCs four digits; allowed_mcc and blocked_mcc never both." })
export class CardControlsInput {
  @Field(() => String, { nullable: true })
  daily_limit?: string | null;

  @Field(() => String, { nullable: true })
  monthly_limit?: string | null;

  @Field(() => String, { nullable: true })
  single_transaction_limit?: string | null;

  @Field(() => [String], { nullable: true })
  allowed_mcc?: string[] | null;

  @Field(() => [String], { nullable: true })
  blocked_mcc?: string[] | null;
}

@InputType()
export class CardFundingSourceInput {
  @Field(() => CardFundingSourceTypeEnum)
  type!: CardFundingSourceType;

  @Field(() => String, { description: "The wallet id (as a string) or bank account id." })
  id!: string;
}

@InputType()
export class CreateCardInput {
  @Field(() => CardTypeEnum)
  type!: CardType;

  @Field(() => CardFundingSourceInput)
  funding_source!: CardFundingSourceInput;

  @Field(() => String, { nullable: true, description: "USD (default) or EUR." })
  currency?: string | null;

  @Field(() => String, { nullable: true })
  nickname?: string | null;

  @Field(() => CardControlsInput, { nullable: true })
  controls?: CardControlsInput | null;

  @Field(() => JSONObjectScalar, { nullable: true, description: "Physical cards only (and required for them)." })
  shipping_address?: Record<string, unknown> | null;
}

@InputType()
export class UpdateCardInput {
  @Field(() => String, { nullable: true })
  nickname?: string | null;

  @Field(() => CardControlsInput, { nullable: true })
  controls?: CardControlsInput | null;
}
