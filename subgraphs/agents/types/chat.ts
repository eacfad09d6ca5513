import { Field, ID, InputType, Int, ObjectType } from "type-graphql";
import { MAX_CHAT_TITLE_LENGTH } from "../../../lib/contracts/chat.ts";
import { JSONObjectScalar } from "../../../lib/graphql/scalars.ts";

@InputType({ description: `A new chat session: its title, at most ${MAX_CHAT_TITLE_LENGTH} characters; absent, null or blank: "New chat".` })
export class CreateChatSessionInput {
  @Field(() => String, { nullable: true })
  title?: string | null;
}

@ObjectType({ description: "A conversation of the user with the assistant." })
export class ChatSession {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  user_id!: string;

  @Field(() => String)
  title!: string;

  @Field(() => Date)
  created_at!: Date;

  @Field(() => Date, { description: "When its latest message arrived." })
  updated_at!: Date;
}

@ObjectType({ description: "One message of a chat session (spec 2.10 types: user, assistant, tool_call, tool_result), in order." })
export class ChatMessage {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  session_id!: string;

  @Field(() => String, { description: "user, assistant, tool_call or tool_result" })
  type!: string;

  @Field(() => String, { nullable: true, description: "The text of user and assistant messages." })
  content!: string | null;

  @Field(() => String, { nullable: true, description: "Pairs a tool_call with its tool_result." })
  tool_call_id!: string | null;

  @Field(() => String, { nullable: true, description: "The AgentTool a tool_call runs (the MCP tool name)." })
  tool_name!: string | null;

  @Field(() => JSONObjectScalar, { nullable: true, description: "A tool_call's arguments." })
  tool_arguments!: Record<string, unknown> | null;

  @Field(() => JSONObjectScalar, { nullable: true, description: "A tool_result's answer: the REST status and body." })
  tool_result!: Record<string, unknown> | null;

  @Field(() => Date)
  created_at!: Date;
}

@ObjectType({ description: "A write the assistant proposed: it runs only when the user confirms it, exactly as stored, once, before expires_at." })
export class ChatAction {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  session_id!: string;

  @Field(() => String)
  user_id!: string;

  @Field(() => String, { description: "The tool_call that proposed it." })
  tool_call_id!: string;

  @Field(() => String, { description: "The AgentAction tool the assistant called." })
  tool_name!: string;

  @Field(() => String, { description: "The REST request it makes once confirmed: method" })
  method!: string;

  @Field(() => String, { description: "The REST request it makes once confirmed: path and query string" })
  path!: string;

  @Field(() => JSONObjectScalar, { nullable: true, description: "The REST request it makes once confirmed: JSON body" })
  body!: Record<string, unknown> | null;

  @Field(() => String, { description: "What it does, for the user to read before confirming; what moves where, for a money movement." })
  summary!: string;

  @Field(() => String, { description: "proposed, confirmed, completed, failed, declined or expired" })
  status!: string;

  @Field(() => Int, { nullable: true, description: "The HTTP status the confirmed write answered." })
  result_status!: number | null;

  @Field(() => JSONObjectScalar, { nullable: true, description: "The confirmed write's answer (its REST body)." })
  result!: Record<string, unknown> | null;

  @Field(() => Date)
  expires_at!: Date;

  @Field(() => Date, { nullable: true })
  decided_at!: Date | null;

  @Field(() => Date)
  created_at!: Date;
}
