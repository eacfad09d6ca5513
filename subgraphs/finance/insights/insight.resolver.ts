import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { AgentTool } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { Insight, InsightFilter, InsightPage } from "../types/insight.ts";
import { PageInput } from "../types/transaction-page.ts";
import { FinanceUser } from "../types/user.ts";
import { computeInsights } from "./compute-insights.ts";
import { dismissInsight } from "./dismiss-insight.ts";
import { getInsight, listInsights } from "./insight-queries.ts";

@Resolver(() => Insight)
export class InsightResolver {
  constructor(private readonly services: FinanceServices) {}

  @AgentTool("read:transactions")
  @Query(() => InsightPage, { description: "The user's insights, newest first; active ones unless filter.status says otherwise." })
  insights(
    @Arg("filter", () => InsightFilter, { nullable: true }) filter: InsightFilter | null,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "read");
    return listInsights(this.services.db, { user_id, filter, page });
  }

  @AgentTool("read:transactions")
  @Query(() => Insight, { description: "One insight of the user." })
  insight(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "read");
    return getInsight(this.services.db, { user_id, insight_id: id });
  }

  @Mutation(() => Insight, { description: "Dismisses the insight for good; dismissing it again changes nothing." })
  dismiss_insight(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return dismissInsight(this.services.db, { user_id, insight_id: id });
  }

  @Mutation(() => InsightPage, { description: "Computes the user's insights now (as the job does after ledger changes) and answers the active ones." })
  async refresh_insights(@Arg("page", () => PageInput, { nullable: true }) page: PageInput | null, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    await computeInsights(this.services, user_id);
    return listInsights(this.services.db, { user_id, page });
  }
}

@Resolver(() => FinanceUser)
export class InsightUserResolver {
  constructor(private readonly services: FinanceServices) {}

  @AgentTool("read:transactions")
  @FieldResolver(() => InsightPage, { description: "The user's insights, newest first; active ones unless filter.status says otherwise." })
  insights(
    @Root() user: FinanceUser,
    @Arg("filter", () => InsightFilter, { nullable: true }) filter: InsightFilter | null,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    // only the caller's own: another user's insights read as those of the id "", which no user has
    const { user_id } = requireUser(ctx.principal, "read");
    return listInsights(this.services.db, { user_id: user_id === user.id ? user_id : "", filter, page });
  }
}
