import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { AgentAction, AgentTool } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { IDEMPOTENCY_KEY_ARG } from "../../../lib/idempotency.ts";
import type { AgentsServices } from "../services.ts";
import type { StrategyCategory, UserStrategyStatus } from "../../../lib/vocabulary/agents.ts";
import { EnableStrategyInput, Strategy, StrategyCategoryEnum, UpdateUserStrategyInput, UserStrategy, UserStrategyStatusEnum } from "../types/strategy.ts";
import { AgentsUser } from "../types/user.ts";
import { findStrategy, listStrategies, strategyView } from "./strategy-catalogue.ts";
import { deleteUserStrategy, enableStrategy, getUserStrategy, listUserStrategies, updateUserStrategy } from "./user-strategies.ts";

@Resolver(() => Strategy)
export class StrategyResolver {
  constructor(private readonly services: AgentsServices) {}

  @AgentTool("read:transactions")
  @Query(() => [Strategy], { description: "The strategy catalogue, by category when asked." })
  strategies(@Arg("category", () => StrategyCategoryEnum, { nullable: true }) category: StrategyCategory | null, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    requireUser(ctx.principal, "read");
    return listStrategies(this.services.db, category ?? null);
  }

  @AgentTool("read:transactions")
  @Query(() => Strategy)
  async strategy(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    requireUser(ctx.principal, "read");
    return strategyView(await findStrategy(this.services.db, id));
  }
}

@Resolver(() => UserStrategy)
export class UserStrategyResolver {
  constructor(private readonly services: AgentsServices) {}

  @AgentTool("read:transactions")
  @Query(() => [UserStrategy], { description: "The user's strategies, oldest first; by status when asked." })
  user_strategies(@Arg("status", () => UserStrategyStatusEnum, { nullable: true }) status: UserStrategyStatus | null, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listUserStrategies(this.services.db, requireUser(ctx.principal, "read").user_id, status ?? null);
  }

  @AgentTool("read:transactions")
  @Query(() => UserStrategy)
  user_strategy(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return getUserStrategy(this.services.db, requireUser(ctx.principal, "read").user_id, id);
  }

  @AgentAction("write:strategies")
  @Mutation(() => UserStrategy, { description: "Turns a catalogue strategy on for the user with its parameters (enabled)." })
  enable_strategy(
    @Arg("input", () => EnableStrategyInput) input: EnableStrategyInput,
    @Arg("idempotency_key", () => String, { nullable: true, description: IDEMPOTENCY_KEY_ARG }) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write", "write:strategies");
    return enableStrategy(this.services.db, this.services.users, user_id, { ...input, trace_id: ctx.trace_id, idempotency_key: idempotencyKey });
  }

  @AgentAction("write:strategies")
  @Mutation(() => UserStrategy, { description: "Changes the user strategy's parameters and/or status (enabled, disabled), each checked." })
  update_user_strategy(
    @Arg("id", () => ID) id: string,
    @Arg("input", () => UpdateUserStrategyInput) input: UpdateUserStrategyInput,
    @Arg("idempotency_key", () => String, { nullable: true, description: IDEMPOTENCY_KEY_ARG }) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write", "write:strategies");
    return updateUserStrategy(this.services.db, this.services.users, user_id, id, { parameters: input.parameters ?? null, status: input.status ?? null, trace_id: ctx.trace_id, idempotency_key: idempotencyKey });
  }

  @AgentAction("write:strategies")
  @Mutation(() => UserStrategy, { description: "Deletes the user strategy; answers it as it was." })
  delete_user_strategy(
    @Arg("id", () => ID) id: string,
    @Arg("idempotency_key", () => String, { nullable: true, description: IDEMPOTENCY_KEY_ARG }) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return deleteUserStrategy(this.services.db, requireUser(ctx.principal, "write", "write:strategies").user_id, id, idempotencyKey);
  }
}

@Resolver(() => AgentsUser)
export class UserStrategiesFieldResolver {
  constructor(private readonly services: AgentsServices) {}

  @AgentTool("read:transactions")
  @FieldResolver(() => [UserStrategy], { description: "The user's strategies, oldest first." })
  strategies(@Root() user: AgentsUser, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return user_id === user.id ? listUserStrategies(this.services.db, user_id, null) : Promise.resolve([]);
  }
}
