import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { Directive, Field, ID, InputType, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { CARD_AUTHORIZATION_DECISIONS, CARD_AUTHORIZATION_STATUSES, CARD_DECLINE_REASONS } from "../../../lib/vocabulary/cards.ts";
import { Transaction } from "./transaction.ts";
import { Pagination } from "./transaction-page.ts";

export const CardAuthorizationDecisionEnum = graphqlEnum(CARD_AUTHORIZATION_DECISIONS, "CardAuthorizationDecision", "What was decided of a card authorization request.");
export const CardAuthorizationStatusEnum = graphqlEnum(CARD_AUTHORIZATION_STATUSES, "CardAuthorizationStatus", "declined, or approved and pending until captured (then refunded) or reversed.");
export const CardDeclineReasonEnum = graphqlEnum(CARD_DECLINE_REASONS, "CardDeclineReason", "Why an authorization was declined: the first rule it failed, in this order.");

@Directive(AGENT_TAG)
@ObjectType({ description: "The merchant of a card authorization." })
export class CardAuthorizationMerchant {
  @Field(() => String)
  name!: string;

  @Field(() => String, { description: "Four-digit merchant category code (ISO 18245); it sets the purchase's category." })
  mcc!: string;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "One authorization request at a merchant and what was decided; approved ones hold a card_purchase in the ledger." })
export class CardAuthorization {
  @Field(() => ID, { description: "cau_<id>" })
  id!: string;

  @Field(() => ID)
  card_id!: string;

  @Field(() => CardAuthorizationDecisionEnum)
  decision!: string;

  @Field(() => CardDeclineReasonEnum, { nullable: true, description: "Set when declined." })
  decline_reason!: string | null;

  @Field(() => CardAuthorizationStatusEnum)
  status!: string;

  @Field(() => String, { description: "Decimal string in `currency`." })
  amount!: string;

  @Field(() => String, { description: "What the merchant asked in (ISO 4217)." })
  currency!: string;

  @Field(() => CardAuthorizationMerchant)
  merchant!: CardAuthorizationMerchant;

  @Field(() => Transaction, { nullable: true, description: "The card_purchase an approval booked (out of the funding source, naming the card); null when declined." })
  transaction!: Transaction | null;

  @Field(() => String, { description: "The sum of its refunds, decimal string in `currency`." })
  refunded_amount!: string;

  @Field(() => [Transaction], { description: "Its card_refund movements, oldest first." })
  refunds!: Transaction[];

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@Directive(AGENT_TAG)
@ObjectType()
export class CardAuthorizationPage {
  @Field(() => [CardAuthorization])
  items!: CardAuthorization[];

  @Field(() => Pagination)
  pagination!: Pagination;
}

@InputType({ description: "A sandbox merchant's refund of a captured authorization." })
export class SandboxCardRefundInput {
  @Field(() => String, { nullable: true, description: "Decimal string in the authorization's currency; default all that is left." })
  amount?: string | null;
}
