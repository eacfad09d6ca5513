import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { AgentTool } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import type { FinanceServices } from "../services.ts";
import { Budget, BudgetSettings, CreateBudgetInput, UpdateBudgetInput, UpdateBudgetSettingsInput } from "../types/budget.ts";
import { FinanceUser } from "../types/user.ts";
import { getBudget, listBudgets } from "./budget-view.ts";
import { getBudgetSettings, updateBudgetSettings } from "./budget-settings.ts";
import { createBudget } from "./create-budget.ts";
import { deleteBudget } from "./delete-budget.ts";
import { updateBudget } from "./update-budget.ts";

@Resolver(() => Budget)
export class BudgetResolver {
  constructor(private readonly services: FinanceServices) {}

  @AgentTool("read:transactions")
  @Query(() => [Budget], { description: "The user's budgets with the current period's spending." })
  budgets(@Ctx() ctx: RequestContext): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return listBudgets(this.services.db, { user_id });
  }

  @AgentTool("read:transactions")
  @Query(() => Budget, { description: "One budget of the user." })
  budget(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "read");
    return getBudget(this.services.db, { user_id, budget_id: id });
  }

  @AgentTool("read:transactions")
  @Query(() => BudgetSettings, { description: "Where the user's budget periods begin." })
  budget_settings(@Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "read");
    return getBudgetSettings(this.services.db, { user_id });
  }

  @Mutation(() => Budget)
  create_budget(@Arg("input", () => CreateBudgetInput) input: CreateBudgetInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return createBudget(this.services.db, { user_id, ...input });
  }

  @Mutation(() => Budget)
  update_budget(@Arg("id", () => ID) id: string, @Arg("input", () => UpdateBudgetInput) input: UpdateBudgetInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return updateBudget(this.services.db, { user_id, budget_id: id, ...input });
  }

  @Mutation(() => ID, { description: "Deletes the budget; answers its id." })
  delete_budget(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<string> {
    const { user_id } = requireUser(ctx.principal, "write");
    return deleteBudget(this.services.db, { user_id, budget_id: id });
  }

  @Mutation(() => BudgetSettings)
  update_budget_settings(@Arg("input", () => UpdateBudgetSettingsInput) input: UpdateBudgetSettingsInput, @Ctx() ctx: RequestContext): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return updateBudgetSettings(this.services.db, { user_id, time_zone: input.time_zone });
  }
}

@Resolver(() => FinanceUser)
export class BudgetUserResolver {
  constructor(private readonly services: FinanceServices) {}

  @AgentTool("read:transactions")
  @FieldResolver(() => [Budget], { description: "The user's budgets with the current period's spending." })
  budgets(@Root() user: FinanceUser, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    // entity references come from the gateway's plan; still, only the caller's own budgets
    const { user_id } = requireUser(ctx.principal, "read");
    if (user_id !== user.id) return Promise.resolve([]);
    return listBudgets(this.services.db, { user_id });
  }
}
