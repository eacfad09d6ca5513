import { Directive, Field, ID, InputType, ObjectType } from "type-graphql";
import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import { RULE_ACTIONS, RULE_TRIGGERS, USER_RULE_STATUSES, type RuleAction, type RuleTrigger, type UserRuleStatus } from "../../../lib/vocabulary/agents.ts";

export const RuleTriggerEnum = graphqlEnum(RULE_TRIGGERS, "RuleTrigger", "What fires a rule (spec 2.10); a rule's trigger holds its settings.");
export const RuleActionEnum = graphqlEnum(RULE_ACTIONS, "RuleAction", "What a rule does when it fires (spec 2.10); a rule's action holds its settings.");
export const UserRuleStatusEnum = graphqlEnum(USER_RULE_STATUSES, "UserRuleStatus", "A user rule's states: the user enables and disables it; automation puts it in error.");

@Directive(AGENT_TAG)
@ObjectType({ description: "A user rule (spec 2.10): when its trigger happens, its action runs." })
export class UserRule {
  @Field(() => ID, { description: "rul_<id>" })
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => Boolean, { description: "whether it fires: status is enabled" })
  enabled!: boolean;

  @Field(() => UserRuleStatusEnum, { description: "enabled, disabled or error (automation stopped it: a loop, a chain too deep or its hourly cap; last_error says why)" })
  status!: UserRuleStatus;

  @Field(() => String, { nullable: true, description: "Why automation stopped it, while in error (cleared when it is enabled or disabled)." })
  last_error!: string | null;

  @Field(() => RuleTriggerEnum)
  trigger_type!: RuleTrigger;

  @Field(() => JSONObjectScalar)
  trigger!: Record<string, unknown>;

  @Field(() => RuleActionEnum)
  action_type!: RuleAction;

  @Field(() => JSONObjectScalar)
  action!: Record<string, unknown>;

  @Field(() => Date, { nullable: true, description: "time_based: when it fires next." })
  next_run_at!: Date | null;

  @Field(() => Date, { nullable: true })
  last_fired_at!: Date | null;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "One firing of a rule: once per rule and event." })
export class UserRuleExecution {
  @Field(() => ID, { description: "rex_<id>" })
  id!: string;

  @Field(() => String, { description: "what fired it: ledger:<event>, time:<slot>, price:<asset>:<side>:<instant>" })
  event_key!: string;

  @Field(() => JSONObjectScalar, { description: "what it saw" })
  event!: Record<string, unknown>;

  @Field(() => String, { description: "fired (its action done or queued), failed, skipped (inside its cooldown) or stopped (a loop, a chain too deep or its hourly cap: the rule was put in error)" })
  outcome!: string;

  @Field(() => String, { nullable: true })
  detail!: string | null;

  @Field(() => String, { nullable: true, description: "the agent task its action queued (transfer, strategy_trigger)" })
  task_id!: string | null;

  @Field(() => Date)
  created_at!: Date;
}

@InputType({ description: "A new rule: a trigger and an action, each with its settings." })
export class CreateUserRuleInput {
  @Field(() => String)
  name!: string;

  @Field(() => RuleTriggerEnum)
  trigger_type!: RuleTrigger;

  @Field(() => JSONObjectScalar)
  trigger!: Record<string, unknown>;

  @Field(() => RuleActionEnum)
  action_type!: RuleAction;

  @Field(() => JSONObjectScalar)
  action!: Record<string, unknown>;

  @Field(() => Boolean, { nullable: true })
  enabled?: boolean | null;
}

@InputType({ description: "The fields to change; absent or null: unchanged." })
export class UpdateUserRuleInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => Boolean, { nullable: true })
  enabled?: boolean | null;
}
