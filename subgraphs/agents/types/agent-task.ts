import { Directive, Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { AGENT_TAG } from "../../../lib/graphql/agent-tag.ts";
import { graphqlEnum } from "../../../lib/graphql/enums.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import { AGENT_TASK_STATUSES, type AgentTaskStatus } from "../../../lib/vocabulary/agents.ts";

export const AgentTaskStatusEnum = graphqlEnum(AGENT_TASK_STATUSES, "AgentTaskStatus", "An agent task's states (spec 3.5).");

@Directive(AGENT_TAG)
@ObjectType({ description: "One status an agent task went through." })
export class AgentTaskStatusChange {
  @Field(() => String, { nullable: true })
  from!: string | null;

  @Field(() => String)
  to!: string;

  @Field(() => Date)
  changed_at!: Date;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "An agent task (spec 3.5): a durable job run on the user's behalf." })
export class AgentTask {
  @Field(() => ID, { description: "tsk_<id>" })
  id!: string;

  @Field(() => String, { description: "What it does: strategy_run." })
  kind!: string;

  @Field(() => String)
  title!: string;

  @Field(() => JSONObjectScalar)
  input!: Record<string, unknown>;

  @Field(() => AgentTaskStatusEnum)
  status!: AgentTaskStatus;

  @Field(() => JSONObjectScalar, { nullable: true, description: "What it did, once completed." })
  output!: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: "Why it failed." })
  error!: string | null;

  @Field(() => String, { nullable: true, description: "The user strategy it runs (strategy_run)." })
  user_strategy_id!: string | null;

  @Field(() => Date, { description: "When it may start." })
  scheduled_at!: Date;

  @Field(() => Date, { nullable: true })
  started_at!: Date | null;

  @Field(() => Date, { nullable: true })
  finished_at!: Date | null;

  @Field(() => Date, { nullable: true, description: "When the user asked to cancel it (cooperative: it stops at its next safe point)." })
  cancel_requested_at!: Date | null;

  @Field(() => Int, { description: "Runs started; more than one when a runner died or a dependency failed." })
  attempts!: number;

  @Field(() => [AgentTaskStatusChange])
  status_history!: AgentTaskStatusChange[];

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date)
  updated_at!: Date;
}

@Directive(AGENT_TAG)
@ObjectType({ description: "An in-app notification (alert strategies, later rules)." })
export class Notification {
  @Field(() => ID, { description: "ntf_<id>" })
  id!: string;

  @Field(() => String, { description: "What raised it, e.g. stg_low_balance_alert." })
  source!: string;

  @Field(() => String)
  title!: string;

  @Field(() => String)
  body!: string;

  @Field(() => JSONObjectScalar, { description: "The figures behind it." })
  data!: Record<string, unknown>;

  @Field(() => Date, { nullable: true })
  read_at!: Date | null;

  @Field(() => Date)
  created_at!: Date;
}

@InputType({ description: "A task to queue: a kind with its input, now or at scheduled_at." })
export class CreateAgentTaskInput {
  @Field(() => String)
  kind!: string;

  @Field(() => JSONObjectScalar, { nullable: true })
  input?: Record<string, unknown> | null;

  @Field(() => Date, { nullable: true, description: "When it may start: default now, at most a year ahead." })
  scheduled_at?: Date | null;

  @Field(() => String, { nullable: true })
  title?: string | null;
}
