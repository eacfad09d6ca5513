import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { Directive, Field, Float, ID, InputType, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { BUDGET_PERIODS, type BudgetPeriod } from "../../../lib/vocabulary/budgets.ts";
import type { SpendingCategory } from "../../../lib/vocabulary/transactions.ts";
import { SpendingCategoryEnum } from "./transaction-enums.ts";

export const BudgetPeriodEnum = graphqlEnum(BUDGET_PERIODS, "BudgetPeriod", "weekly: resets Monday 00:00; monthly: resets on the 1st 00:00 (in the user's time zone); custom: the budget's own period_start and period_end (spec 2.10).");

@Directive(AGENT_TAG)
@ObjectType({ description: "A spending limit for one category and period, with the current period's figures (spec 2.10)." })
export class Budget {
  @Field(() => ID, { description: "bgt_<id>" })
  id!: string;

  @Field(() => SpendingCategoryEnum)
  category!: SpendingCategory;

  @Field(() => String, { description: "The limit, decimal string in currency units." })
  amount!: string;

  @Field(() => String, { description: "A symbol of the asset catalogue (USD, EUR, USDC …)." })
  currency!: string;

  @Field(() => BudgetPeriodEnum)
  period!: BudgetPeriod;

  @Field(() => Date, { description: "Start of the current period (inclusive): the budget's own for custom, else this week's Monday or this month's 1st, 00:00 in time_zone." })
  period_start!: Date;

  @Field(() => Date, { description: "End of the current period (exclusive)." })
  period_end!: Date;

  @Field(() => String, { description: "The IANA zone the period was computed in (the user's budget setting, default UTC)." })
  time_zone!: string;

  @Field(() => String, { description: "Completed, pending and processing out transactions of the category in the current period, decimal string." })
  spent!: string;

  @Field(() => String, { description: "amount − spent, decimal string; negative once overspent." })
  remaining!: string;

  @Field(() => Float, { description: "spent / amount × 100, two decimals; over 100 once overspent." })
  percentage_used!: number;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@InputType()
export class CreateBudgetInput {
  @Field(() => SpendingCategoryEnum)
  category!: SpendingCategory;

  @Field(() => String, { description: "Positive decimal string, at most the currency's decimals." })
  amount!: string;

  @Field(() => String, { nullable: true, description: "A symbol of the asset catalogue; default USD." })
  currency?: string | null;

  @Field(() => BudgetPeriodEnum)
  period!: BudgetPeriod;

  @Field(() => Date, { nullable: true, description: "custom only: start (inclusive)." })
  period_start?: Date | null;

  @Field(() => Date, { nullable: true, description: "custom only: end (exclusive)." })
  period_end?: Date | null;
}

@InputType({ description: "The fields to change; absent or null: unchanged. Leaving custom drops the bounds; moving to custom needs both." })
export class UpdateBudgetInput {
  @Field(() => SpendingCategoryEnum, { nullable: true })
  category?: SpendingCategory | null;

  @Field(() => String, { nullable: true })
  amount?: string | null;

  @Field(() => String, { nullable: true })
  currency?: string | null;

  @Field(() => BudgetPeriodEnum, { nullable: true })
  period?: BudgetPeriod | null;

  @Field(() => Date, { nullable: true })
  period_start?: Date | null;

  @Field(() => Date, { nullable: true })
  period_end?: Date | null;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "The user's budget settings." })
export class BudgetSettings {
  @Field(() => String, { description: "IANA time zone where budget periods begin; default UTC." })
  time_zone!: string;
}

@InputType()
export class UpdateBudgetSettingsInput {
  @Field(() => String, { description: "IANA time zone name, e.g. Europe/Berlin." })
  time_zone!: string;
}
