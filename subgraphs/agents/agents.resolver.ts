import { Arg, Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import { requireUser } from "../../lib/auth/authorize.ts";
import { AgentTool } from "../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../lib/graphql/context.ts";
import type { AgentsServices } from "./services.ts";
import { listAgentTasks } from "./tasks/agent-tasks.ts";
import type { AgentTaskStatus } from "../../lib/vocabulary/agents.ts";
import { AgentTask, AgentTaskStatusEnum, Notification } from "./types/agent-task.ts";
import { AgentsUser } from "./types/user.ts";
import { listNotifications } from "./notifications/notifications.ts";

@Resolver(() => AgentsUser)
export class AgentsUserResolver {
  constructor(private readonly services: AgentsServices) {}

  @AgentTool("read:transactions")
  @FieldResolver(() => [AgentTask], { description: "The user's agent tasks, newest first (at most 100)." })
  agent_tasks(@Root() user: AgentsUser, @Arg("status", () => AgentTaskStatusEnum, { nullable: true }) status: AgentTaskStatus | null, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return user_id === user.id ? listAgentTasks(this.services.db, user_id, { status: status ?? null, limit: 100 }) : Promise.resolve([]);
  }

  @FieldResolver(() => [Notification], { description: "The user's notifications, newest first (at most 100)." })
  notifications(@Root() user: AgentsUser, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return user_id === user.id ? listNotifications(this.services.db, user_id, { unread: false, limit: 100 }) : Promise.resolve([]);
  }
}
