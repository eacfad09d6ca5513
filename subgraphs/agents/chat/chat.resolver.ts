import { Arg, Ctx, Field, ID, InputType, Int, Mutation, Query, Resolver } from "type-graphql";
import { requireInternal, requireUser } from "../../../lib/auth/authorize.ts";
import type { RequestContext } from "../../../lib/graphql/context.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";
import type { AgentsServices } from "../services.ts";
import { ChatMessage, ChatSession, CreateChatSessionInput } from "../types/chat.ts";
import { appendChatMessages, createChatSession, getChatSession, listChatMessages, listChatSessions } from "./chat-sessions.ts";

@InputType()
class ChatMessageInput {
  @Field(() => String)
  type!: string;

  @Field(() => String, { nullable: true })
  content?: string | null;

  @Field(() => String, { nullable: true })
  tool_call_id?: string | null;

  @Field(() => String, { nullable: true })
  tool_name?: string | null;

  @Field(() => JSONObjectScalar, { nullable: true })
  tool_arguments?: Record<string, unknown> | null;

  @Field(() => JSONObjectScalar, { nullable: true })
  tool_result?: Record<string, unknown> | null;
}

/**
 * Sessions and their history are the user's (JWT or PAT). Messages are written only by the
 * adapter's chat turn (`requireInternal`), which runs the assistant and its tool calls with the
 * user's own credential: a client cannot put words in the assistant's mouth.
 */
@Resolver(() => ChatSession)
export class ChatResolver {
  constructor(private readonly services: AgentsServices) {}

  @Query(() => [ChatSession], { description: "The user's chat sessions, most recently active first." })
  chat_sessions(@Ctx() ctx: RequestContext): Promise<unknown[]> {
    return listChatSessions(this.services.db, requireUser(ctx.principal, "read").user_id);
  }

  @Query(() => ChatSession)
  chat_session(@Arg("id", () => ID) id: string, @Ctx() ctx: RequestContext): Promise<unknown> {
    return getChatSession(this.services.db, { user_id: requireUser(ctx.principal, "read").user_id, session_id: id });
  }

  @Query(() => [ChatMessage], { description: "A session's messages in order." })
  chat_messages(
    @Arg("session_id", () => ID) session_id: string,
    @Arg("last", () => Int, { nullable: true, description: "Only the latest `last` messages, still in order (1 to 1000)." }) last: number | null,
    @Ctx() ctx: RequestContext,
  ): Promise<unknown[]> {
    const user_id = requireUser(ctx.principal, "read").user_id;
    return listChatMessages(this.services.db, { user_id, session_id, ...(typeof last === "number" && { last: Math.min(Math.max(last, 1), 1000) }) });
  }

  @Mutation(() => ChatSession)
  create_chat_session(@Arg("input", () => CreateChatSessionInput, { nullable: true, description: "Absent: a session titled \"New chat\"." }) input: CreateChatSessionInput | null, @Ctx() ctx: RequestContext): Promise<unknown> {
    return createChatSession(this.services.db, { ...input, user_id: requireUser(ctx.principal, "write").user_id });
  }

  @Mutation(() => [ChatMessage], { description: "Internal (the adapter's chat turn): appends messages to a user's session." })
  append_chat_messages(
    @Arg("user_id", () => String) user_id: string,
    @Arg("session_id", () => ID) session_id: string,
    @Arg("messages", () => [ChatMessageInput]) messages: ChatMessageInput[],
    @Ctx() ctx: RequestContext,
  ): Promise<unknown[]> {
    requireInternal(ctx.principal, "rest-adapter");
    return appendChatMessages(this.services.db, { user_id, session_id, messages });
  }
}
