import { Directive, Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import { STRATEGY_CATEGORIES, USER_SET_STRATEGY_STATUSES, USER_STRATEGY_STATUSES, type StrategyCategory, type UserSetStrategyStatus, type UserStrategyStatus } from "../../../lib/vocabulary/agents.ts";
import { MAX_CONSECUTIVE_FAILURES } from "../strategies/user-strategy-status.ts";

export const StrategyCategoryEnum = graphqlEnum(STRATEGY_CATEGORIES, "StrategyCategory", "What a strategy of the catalogue is for (spec 2.10).");
export const UserStrategyStatusEnum = graphqlEnum(USER_STRATEGY_STATUSES, "UserStrategyStatus", "A user strategy's states (spec 3.6).");
export const UserSetStrategyStatusEnum = graphqlEnum(USER_SET_STRATEGY_STATUSES, "UserSetStrategyStatus", "The states a user moves their strategy to; error is its failing runs'.");

/** What a strategy is, without its parameters' schema (a user strategy shows its entry this way). */
@Directive(AGENT_TAG)
@ObjectType({ description: "A strategy of the catalogue, as a user strategy names it." })
export class StrategySummary {
  @Field(() => ID, { description: "stg_<name>" })
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  description!: string;

  @Field(() => StrategyCategoryEnum)
  category!: StrategyCategory;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "A strategy of the catalogue: what it does and the JSON Schema of its parameters." })
export class Strategy extends StrategySummary {
  @Field(() => JSONObjectScalar, { description: "The JSON Schema (2020-12 subset) a user strategy's parameters must meet." })
  parameters_schema!: Record<string, unknown>;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "One status a user strategy went through." })
export class UserStrategyStatusChange {
  @Field(() => String, { nullable: true })
  from!: string | null;

  @Field(() => String)
  to!: string;

  @Field(() => String, { description: "user (enabled or disabled it) or run_failures (its runs kept failing)" })
  cause!: string;

  @Field(() => Date)
  changed_at!: Date;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "A strategy the user turned on, with its parameters (spec 3.6: enabled, disabled, error)." })
export class UserStrategy {
  @Field(() => ID, { description: "ust_<id>" })
  id!: string;

  @Field(() => StrategySummary)
  strategy!: StrategySummary;

  @Field(() => JSONObjectScalar, { description: "Checked against the strategy's parameters_schema, its defaults filled in." })
  parameters!: Record<string, unknown>;

  @Field(() => UserStrategyStatusEnum)
  status!: UserStrategyStatus;

  @Field(() => String, { nullable: true, description: "Why its runs failed, while in error (kept until it is enabled again)." })
  last_error!: string | null;

  @Field(() => Int, { description: `Failed runs in a row; at ${MAX_CONSECUTIVE_FAILURES} an enabled strategy moves to error.` })
  consecutive_failures!: number;

  @Field(() => Date, { nullable: true })
  last_run_at!: Date | null;

  @Field(() => [UserStrategyStatusChange])
  status_history!: UserStrategyStatusChange[];

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@InputType({ description: "A catalogue strategy to turn on, with its parameters." })
export class EnableStrategyInput {
  @Field(() => ID)
  strategy_id!: string;

  @Field(() => JSONObjectScalar)
  parameters!: Record<string, unknown>;
}

@InputType({ description: "The fields to change; absent or null: unchanged." })
export class UpdateUserStrategyInput {
  @Field(() => JSONObjectScalar, { nullable: true })
  parameters?: Record<string, unknown> | null;

  @Field(() => UserSetStrategyStatusEnum, { nullable: true })
  status?: UserSetStrategyStatus | null;
}
