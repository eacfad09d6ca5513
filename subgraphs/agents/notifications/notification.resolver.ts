import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { AgentTool } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { listLimit } from "../../../lib/list-limit.ts";
import type { AgentsServices } from "../services.ts";
import { Notification } from "../types/agent-task.ts";
import { listNotifications, markNotificationRead } from "./notifications.ts";

@Resolver(() => Notification)
export class NotificationResolver {
  constructor(private readonly services: AgentsServices) {}

  @AgentTool("read:transactions")
  @Query(() => [Notification], { description: "The user's notifications, newest first; only unread ones when asked." })
  notifications(
    @Arg("unread", () => Boolean, { nullable: true }) unread: boolean | null,
    @Arg("limit", () => Int, { nullable: true, description: "1 to 100, default 20" }) limit: number | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown[]> {
    return listNotifications(this.services.db, requireUser(ctx.principal, "read").user_id, { unread: unread ?? false, limit: listLimit(limit, { fallback: 20, max: 100 }) });
  }

  @Mutation(() => Notification, { description: "Marks the user's notification read." })
  mark_notification_read(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return markNotificationRead(this.services.db, requireUser(ctx.principal, "write").user_id, id);
  }
}
