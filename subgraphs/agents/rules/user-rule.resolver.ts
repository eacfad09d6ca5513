import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import { requireUser } from "../../../lib/auth/authorize.ts";
import { listLimit } from "../../../lib/list-limit.ts";
import { AgentAction, AgentTool } from "../../../lib/graphql/agent-tag.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { IDEMPOTENCY_KEY_ARG } from "../../../lib/idempotency.ts";
import type { AgentsServices } from "../services.ts";
import { AgentsUser } from "../types/user.ts";
import { CreateUserRuleInput, UpdateUserRuleInput, UserRule, UserRuleExecution } from "../types/user-rule.ts";
import { createUserRule, deleteUserRule, getUserRule, listRuleExecutions, listUserRules, updateUserRule } from "./user-rules.ts";

@Resolver(() => UserRule)
export class UserRuleResolver {
  constructor(private readonly services: AgentsServices) {}

  @AgentTool("read:transactions")
  @Query(() => [UserRule], { description: "The user's rules, oldest first." })
  user_rules(@Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listUserRules(this.services.db, requireUser(ctx.principal, "read").user_id);
  }

  @AgentTool("read:transactions")
  @Query(() => UserRule)
  user_rule(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return getUserRule(this.services.db, requireUser(ctx.principal, "read").user_id, id);
  }

  @AgentTool("read:transactions")
  @Query(() => [UserRuleExecution], { description: "A rule's firings, newest first." })
  user_rule_executions(@Arg("id", () => ID) id: string, @Arg("limit", () => Int, { nullable: true }) limit: number | null, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listRuleExecutions(this.services.db, requireUser(ctx.principal, "read").user_id, id, listLimit(limit, { fallback: 20, max: 100 }));
  }

  @AgentAction("write:strategies")
  @Mutation(() => UserRule, { description: "Creates a rule: a trigger and an action, each with its settings." })
  create_user_rule(
    @Arg("input", () => CreateUserRuleInput) input: CreateUserRuleInput,
    @Arg("idempotency_key", () => String, { nullable: true, description: IDEMPOTENCY_KEY_ARG }) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id, principal } = requireUser(ctx.principal, "write", "write:strategies");
    const agent_scopes = principal.kind === "agent" ? principal.scopes : null;
    return createUserRule(this.services, user_id, { ...input, enabled: input.enabled ?? null, agent_scopes, trace_id: ctx.trace_id, idempotency_key: idempotencyKey });
  }

  @AgentAction("write:strategies")
  @Mutation(() => UserRule, { description: "Renames, enables or disables a rule (also one in error); an agent token enabling or renaming a transfer rule needs write:transfers." })
  update_user_rule(
    @Arg("id", () => ID) id: string,
    @Arg("input", () => UpdateUserRuleInput) input: UpdateUserRuleInput,
    @Arg("idempotency_key", () => String, { nullable: true, description: IDEMPOTENCY_KEY_ARG }) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id, principal } = requireUser(ctx.principal, "write", "write:strategies");
    const agent_scopes = principal.kind === "agent" ? principal.scopes : null;
    return updateUserRule(this.services.db, user_id, id, { name: input.name ?? null, enabled: input.enabled ?? null, agent_scopes, idempotency_key: idempotencyKey });
  }

  @AgentAction("write:strategies")
  @Mutation(() => UserRule, { description: "Deletes a rule and its firings; answers it as it was." })
  delete_user_rule(
    @Arg("id", () => ID) id: string,
    @Arg("idempotency_key", () => String, { nullable: true, description: IDEMPOTENCY_KEY_ARG }) idempotencyKey: string | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    return deleteUserRule(this.services.db, requireUser(ctx.principal, "write", "write:strategies").user_id, id, idempotencyKey);
  }
}

@Resolver(() => AgentsUser)
export class UserRulesFieldResolver {
  constructor(private readonly services: AgentsServices) {}

  @AgentTool("read:transactions")
  @FieldResolver(() => [UserRule], { description: "The user's rules, oldest first." })
  rules(@Root() user: AgentsUser, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    const { user_id } = requireUser(ctx.principal, "read");
    return user_id === user.id ? listUserRules(this.services.db, user_id) : Promise.resolve([]);
  }
}
