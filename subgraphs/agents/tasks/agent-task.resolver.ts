import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { AgentAction, AgentTool } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { listLimit } from "../../../lib/list-limit.ts";
import { IDEMPOTENCY_KEY_ARG } from "../../../lib/idempotency.ts";
import type { AgentsServices } from "../services.ts";
import type { AgentTaskStatus } from "../../../lib/vocabulary/agents.ts";
import { AgentTask, AgentTaskStatusEnum, CreateAgentTaskInput } from "../types/agent-task.ts";
import { agentTaskView, cancelAgentTask, createAgentTask, listAgentTasks, loadTask } from "./agent-tasks.ts";

@Resolver(() => AgentTask)
export class AgentTaskResolver {
  constructor(private readonly services: AgentsServices) {}

  @AgentAction("write:strategies")
  @Mutation(() => AgentTask, { description: "Queues a task of a kind with its input, now or at scheduled_at." })
  async create_agent_task(
    @Arg("input", () => CreateAgentTaskInput) input: CreateAgentTaskInput,
    @Arg("idempotency_key", () => String, { nullable: true, description: IDEMPOTENCY_KEY_ARG }) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write", "write:strategies");
    const task = await createAgentTask(this.services.db, this.services.taskKinds, user_id, { kind: input.kind, input: input.input ?? null, scheduled_at: input.scheduled_at ?? null, title: input.title ?? null, idempotency_key: idempotencyKey });
    // due now: this process's runner looks at once instead of at its next poll
    if (task.scheduled_at.getTime() <= Date.now()) this.services.jobs.wake();
    return task;
  }

  @AgentTool("read:transactions")
  @Query(() => [AgentTask], { description: "The user's agent tasks, newest first; by status when asked." })
  agent_tasks(
    @Arg("status", () => AgentTaskStatusEnum, { nullable: true }) status: AgentTaskStatus | null,
    @Arg("limit", () => Int, { nullable: true, description: "1 to 100, default 20" }) limit: number | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown[]> {
    return listAgentTasks(this.services.db, requireUser(ctx.principal, "read").user_id, { status: status ?? null, limit: listLimit(limit, { fallback: 20, max: 100 }) });
  }

  @AgentTool("read:transactions")
  @Query(() => AgentTask)
  async agent_task(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return agentTaskView(await loadTask(this.services.db, requireUser(ctx.principal, "read").user_id, id));
  }

  @AgentAction("write:strategies")
  @Mutation(() => AgentTask, { description: "Asks a running task to stop (spec 3.5: running → cancelled); cooperative." })
  cancel_agent_task(
    @Arg("id", () => ID) id: string,
    @Arg("idempotency_key", () => String, { nullable: true, description: IDEMPOTENCY_KEY_ARG }) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return cancelAgentTask(this.services.db, requireUser(ctx.principal, "write", "write:strategies").user_id, id, idempotencyKey);
  }
}
