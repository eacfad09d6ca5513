import { Directive, Field, ID, ObjectType } from "type-graphql";
import { AgentTask } from "./agent-task.ts";

/** The users subgraph's User, extended with what agents owns about it. */
@Directive('@key(fields: "id")')
@ObjectType("User")
export class AgentsUser {
  @Field(() => ID)
  id!: string;

  @Field(() => [AgentTask])
  agent_tasks!: AgentTask[];
}
