import { Arg, Ctx, Field, ID, InputType, Int, Mutation, Query, Resolver } from "type-graphql";
import { requireInternal, requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import type { AgentsServices } from "../services.ts";
import { ChatAction } from "../types/chat.ts";
import { decideChatAction, listChatActions, proposeAgentActions, proposeChatActions, settleChatAction } from "./chat-actions.ts";

@InputType()
class ChatActionInput {
  @Field(() => String)
  tool_call_id!: string;

  @Field(() => String)
  tool_name!: string;

  @Field(() => String)
  method!: string;

  @Field(() => String)
  path!: string;

  @Field(() => JSONObjectScalar, { nullable: true })
  body?: Record<string, unknown> | null;

  @Field(() => String)
  summary!: string;
}

/**
 * Proposed writes of the chat assistant. Only the adapter's chat turn proposes and settles them
 * (`requireInternal`); only the user, with their own JWT or PAT (never an agent token), confirms
 * or declines one.
 */
@Resolver(() => ChatAction)
export class ChatActionResolver {
  constructor(private readonly services: AgentsServices) {}

  @Query(() => [ChatAction], { description: "The actions the assistant proposed in a session, oldest first." })
  chat_actions(@Arg("session_id", () => ID) session_id: string, @Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listChatActions(this.services.db, { user_id: requireUser(ctx.principal, "read").user_id, session_id });
  }

  @Mutation(() => ChatAction, { description: "The user confirms (claims, once) or declines a proposed action; a confirmed one is run by the adapter with the user's credential." })
  decide_chat_action(
    @Arg("session_id", () => ID) session_id: string,
    @Arg("id", () => ID) id: string,
    @Arg("confirm", () => Boolean) confirm: boolean,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    const { user_id } = requireUser(ctx.principal, "write");
    return decideChatAction(this.services.db, { user_id, session_id, action_id: id, decision: confirm ? "confirmed" : "declined" });
  }

  @Mutation(() => [ChatAction], { description: "Internal (the adapter's chat turn): stores the assistant's proposed writes." })
  propose_chat_actions(
    @Arg("user_id", () => String) user_id: string,
    @Arg("session_id", () => ID) session_id: string,
    @Arg("actions", () => [ChatActionInput]) actions: ChatActionInput[],
    @Ctx() ctx: RequestContext,
  ): Promise<unknown[]> {
    requireInternal(ctx.principal, "rest-adapter");
    return proposeChatActions(this.services.db, { user_id, session_id, actions });
  }

  @Mutation(() => [ChatAction], { description: "Internal (the adapter's MCP server): stores writes an agent token proposed, in its user's session for that token." })
  propose_agent_actions(
    @Arg("token_id", () => ID) token_id: string,
    @Arg("actions", () => [ChatActionInput]) actions: ChatActionInput[],
    @Ctx() ctx: RequestContext,
  ): Promise<unknown[]> {
    requireInternal(ctx.principal, "rest-adapter");
    return proposeAgentActions(this.services.db, { token_id, actions });
  }

  @Mutation(() => ChatAction, { description: "Internal (the adapter): records a confirmed action's answer." })
  settle_chat_action(
    @Arg("id", () => ID) id: string,
    @Arg("result_status", () => Int) result_status: number,
    @Arg("result", () => JSONObjectScalar, { nullable: true }) result: Record<string, unknown> | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown> {
    requireInternal(ctx.principal, "rest-adapter");
    return settleChatAction(this.services.db, { action_id: id, result_status, result });
  }
}
