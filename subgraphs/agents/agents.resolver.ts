import { Ctx, FieldResolver, Resolver, Root } from "type-graphql";
import { requireUser } from "../../lib/auth/authorize.ts";
import type { RequestContext } from "../../lib/graphql/context.ts";
import type { AgentsServices } from "./services.ts";
import { AgentTask } from "./types/agent-task.ts";
import { AgentsUser } from "./types/user.ts";

@Resolver(() => AgentsUser)
export class AgentsUserResolver {
  constructor(private readonly services: AgentsServices) {}

  @FieldResolver(() => [AgentTask])
  agent_tasks(@Root() user: AgentsUser, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    if (user_id !== user.id) return Promise.resolve([]);
    return this.services.db.agentTask.findMany({ where: { user_id: user.id }, orderBy: { created_at: "desc" } });
  }
}
