import { Directive, Field, ID, ObjectType } from "type-graphql";
import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";

@Directive(AGENT_TAG)
@ObjectType({ description: "A user rule (spec 2.10): when its trigger happens, its action runs." })
export class UserRule {
  @Field(() => ID, { description: "rul_<id>" })
  id!: string;

  @Field(() => String)
  name!: string;

  @Field(() => Boolean, { description: "whether it fires: status is enabled" })
  enabled!: boolean;

  @Field(() => String, { description: "enabled, disabled or error (automation stopped it: a loop, a chain too deep or its hourly cap; last_error says why)" })
  status!: string;

  @Field(() => String, { nullable: true, description: "Why automation stopped it, while in error (cleared when it is enabled or disabled)." })
  last_error!: string | null;

  @Field(() => String, { description: "transaction_received, balance_threshold, time_based or price_alert" })
  trigger_type!: string;

  @Field(() => JSONObjectScalar)
  trigger!: Record<string, unknown>;

  @Field(() => String, { description: "transfer, notification or strategy_trigger" })
  action_type!: string;

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
