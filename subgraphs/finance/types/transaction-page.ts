import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "../../../lib/contracts/transactions.ts";
import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { Directive, Field, Float, InputType, Int, ObjectType } from "type-graphql";
import type { TransactionFilterInput } from "../transactions/transaction-filter.ts";
import type { TransactionMetaView } from "../transactions/transaction-meta.ts";
import type { SpendingCategory, TransactionDirection, TransactionStatus, TransactionType } from "../../../lib/vocabulary/transactions.ts";
import { SpendingCategoryEnum, TransactionDirectionEnum, TransactionStatusEnum, TransactionTypeEnum } from "./transaction-enums.ts";
import { Transaction } from "./transaction.ts";

@InputType({ description: "The feed's filters (spec 4.3), combined with AND; the instants and decimal bounds are checked by the domain function." })
export class TransactionFilter implements TransactionFilterInput {
  @Field(() => TransactionTypeEnum, { nullable: true, description: "A transaction type (spec 2.10)." })
  type?: TransactionType | null;

  @Field(() => TransactionStatusEnum, { nullable: true, description: "pending, processing, completed or failed." })
  status?: TransactionStatus | null;

  @Field(() => TransactionDirectionEnum, { nullable: true, description: "in or out." })
  direction?: TransactionDirection | null;

  @Field(() => Int, { nullable: true })
  wallet_id?: number | null;

  @Field(() => String, { nullable: true })
  card_id?: string | null;

  @Field(() => String, { nullable: true, description: "A linked bank account's transactions (bnk_<id>)." })
  bank_account_id?: string | null;

  @Field(() => Date, { nullable: true, description: "Inclusive: transactions at or after this instant." })
  period_start?: Date | null;

  @Field(() => Date, { nullable: true, description: "Exclusive: transactions before this instant." })
  period_end?: Date | null;

  @Field(() => String, { nullable: true, description: "Decimal string in asset units; amount >= amount_min, compared exactly." })
  amount_min?: string | null;

  @Field(() => String, { nullable: true, description: "Decimal string in asset units; amount <= amount_max, compared exactly." })
  amount_max?: string | null;

  @Field(() => SpendingCategoryEnum, { nullable: true, description: "A spending category (spec 2.10)." })
  category?: SpendingCategory | null;
}

@InputType({ description: `limit (default ${DEFAULT_PAGE_LIMIT}, 1 to ${MAX_PAGE_LIMIT}) and offset (default 0).` })
export class PageInput {
  @Field(() => Int, { nullable: true })
  limit?: number | null;

  @Field(() => Int, { nullable: true })
  offset?: number | null;
}

@Directive(AGENT_TAG)
@ObjectType({ simpleResolvers: true })
export class Pagination {
  @Field(() => Int)
  limit!: number;

  @Field(() => Int)
  offset!: number;

  @Field(() => Int, { description: "Every item passing the filters, over all pages." })
  total!: number;
}

@Directive(AGENT_TAG)
@ObjectType({ simpleResolvers: true })
export class TransactionDateRange {
  @Field(() => Date, { nullable: true, description: "The oldest timestamp of the filtered set; null when it is empty." })
  earliest!: Date | null;

  @Field(() => Date, { nullable: true, description: "The newest timestamp of the filtered set; null when it is empty." })
  latest!: Date | null;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "USD decimal strings, exact sums of amount_usd; failed movements and those without a price count nothing.", simpleResolvers: true })
export class TransactionCashflow {
  @Field(() => String)
  gross_in!: string;

  @Field(() => String)
  gross_out!: string;

  @Field(() => String, { description: "gross_in − gross_out (may be negative)." })
  net!: string;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "Spending (direction out) of one category; uncategorised outflows count as other.", simpleResolvers: true })
export class CategoryTotal {
  @Field(() => SpendingCategoryEnum)
  category!: string;

  @Field(() => String, { description: "USD decimal string." })
  total_amount!: string;

  @Field(() => Float, { description: "Share of gross_out in percent, 2 decimals; the shares sum to 100 within rounding." })
  percentage_of_total!: number;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "Spec 2.10's feed meta, over the whole filtered set (not the page), computed in SQL.", simpleResolvers: true })
export class TransactionMeta {
  @Field(() => Int)
  transaction_count!: number;

  @Field(() => TransactionDateRange)
  date_range!: TransactionDateRange;

  @Field(() => TransactionCashflow)
  cashflow!: TransactionCashflow;

  @Field(() => [CategoryTotal], { description: "Largest first." })
  categories!: CategoryTotal[];
}

@Directive(AGENT_TAG)
@ObjectType({ description: "One page of the user's transactions, newest first (timestamp, then id).", simpleResolvers: true })
export class TransactionPage {
  @Field(() => [Transaction])
  items!: Transaction[];

  @Field(() => Pagination)
  pagination!: Pagination;

  /** the owner and filters the page was read with, for `meta` */
  query!: { user_id: string; filter: TransactionFilterInput | null };

  /** the meta, read with the page when the query selects it (one aggregation, also the total) */
  meta_view?: TransactionMetaView;
}
