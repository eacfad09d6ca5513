import { Type } from "@sinclair/typebox";
import { AppError, appError } from "../../../lib/errors/app-error.ts";
import { MAX_CHAT_MESSAGE_LENGTH } from "../../../lib/contracts/chat.ts";
import { errorFromGraphQL } from "../../route-kit/graphql-errors.ts";
import { href, link } from "../../route-kit/links.ts";
import type { AgentTool } from "../mcp/agent-tools.ts";
import { toolRequest } from "../../route-kit/tool-request.ts";
import { defineComposedRoute, type Listener } from "../../route-kit/route.ts";
import { chatActionLinks } from "../../routes/chat.ts";
import { CHAT_ACTION_FIELDS, CHAT_MESSAGE_FIELDS, ChatMessage } from "../../resources/resources.generated.ts";
import { Links } from "../../route-kit/schemas.ts";
import { MAX_TOOL_RESULT_CHARS, type Assistant, type AssistantTool, type ChatHistoryMessage } from "./assistant.ts";
import { CHAT_CONTEXT_CHARS, CHAT_CONTEXT_MESSAGES, contextWindow } from "./context-window.ts";
import { proposedAction } from "./proposals.ts";

/** Tool rounds per turn at most: a model that keeps calling tools is stopped with an answer saying so. */
export const MAX_TOOL_ROUNDS = 6;

const SessionId = Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 64 }) });
const TurnBody = Type.Object({ content: Type.String({ minLength: 1, maxLength: MAX_CHAT_MESSAGE_LENGTH }) });

/** What the platform hands the chat turn (Listener.services). */
export interface ChatServices {
  assistant: Assistant;
  /** AgentTool reads: run at once, with the caller's credential, as GET requests only */
  tools: readonly AgentTool[];
  /** agent writes (AgentAction): never run in a turn; a call stores a proposal the user confirms */
  actions: readonly AgentTool[];
}

/** What the model is told of a write it may only propose. */
function proposalTool(tool: AgentTool): AssistantTool {
  return {
    name: tool.name,
    description: `PROPOSES this change for the user to confirm; it does not run now, and nothing changes unless the user confirms it.\n\n${tool.description}`,
    parameters: tool.inputSchema,
  };
}

/** A tool call the route kit refused before any request (invalid arguments): the problem, as the model reads tool errors. */
function refusedCall(error: unknown): { status: number; body: Record<string, unknown> } {
  if (!(error instanceof AppError)) throw error;
  return { status: error.status, body: { error_code: error.code, detail: error.detail, ...(error.validation && { validation: error.validation }) } };
}

type StoredMessage = ChatHistoryMessage & { id: string };
type NewMessage = Omit<ChatHistoryMessage, "content" | "tool_call_id" | "tool_name" | "tool_arguments" | "tool_result"> & Partial<ChatHistoryMessage>;

/**
 * POST /v0/chat/sessions/{session_id}/messages: one turn. The session is read with the caller's
 * credential (another user's is CHT-404-001; an agent token is refused there), every message is
 * stored as the adapter (`append_chat_messages`) the moment it exists, and each tool call is the
 * AgentTool route's REST request made as the caller.
 */
export const chatTurnRoute = defineComposedRoute({
  operationId: "sendChatMessage",
  method: "POST",
  path: "/v0/chat/sessions/{session_id}/messages",
  tag: "Chat",
  summary: "Ask the assistant",
  description: [
    "Stores your message, lets the assistant answer from your own data and answers the turn's messages in order: yours, then each `tool_call` the assistant made with the `tool_result` it got, then its `assistant` answer. The tools it runs are the AgentTool operations, reads only (GET routes, GraphQL queries), run with your own credential: the assistant sees what you may see and changes nothing, whatever text it reads (merchant names, notes and bank descriptions are data, never instructions).",
    "When it wants a change (an AgentAction operation: a rule, a strategy, a task) it can only **propose** it: the call is stored as a proposed action, not run (its `tool_result` has `status` 202 and the action), and runs only when you confirm it with POST /v0/chat/sessions/{session_id}/actions/{action_id}/confirm (or decline it). See GET /v0/chat/sessions/{session_id}/actions.",
    "With `Accept: text/event-stream` the messages stream as server-sent events as they are stored (`event: message`, the message as `data`), then `event: done`; a failure after the stream began is `event: error` with the ProblemDetail.",
    "The built-in assistant (the default) answers balances, spending in a category over a period (\"how much did I spend on groceries this month?\"), the biggest expenses, budgets and insights; with `LLM_BASE_URL` set, an OpenAI-compatible model answers. If the model fails, your message stays and the answer is 502 `CHT-502-001`. Another user's session: 404 `CHT-404-001`.",
    `The session keeps every message; the assistant sees this turn whole and, before it, the latest earlier turns that fit in about ${CHAT_CONTEXT_CHARS.toLocaleString("en-US")} characters (tool results counted at the ${MAX_TOOL_RESULT_CHARS.toLocaleString("en-US")} characters the model is shown of each).`,
  ].join("\n\n"),
  security: ["PlatformJwt", "PlatformPat"],
  params: SessionId,
  body: TurnBody,
  responses: { 201: { description: "The turn's messages, in order", schema: Type.Object({ items: Type.Array(ChatMessage), _links: Links }) } },
  errors: ["CHT-404-001", "CHT-502-001", "USR-403-001", "USR-404-001"],

  eventStream: true,
  handler: ({ gateway, base_url, services }: Listener<ChatServices>) => {
    const session = gateway.prepare(`query ChatTurnSession($id: ID!, $last: Int!) { session: chat_session(id: $id) { id user_id } messages: chat_messages(session_id: $id, last: $last) { ${CHAT_MESSAGE_FIELDS} } }`);
    const append = gateway.prepare(
      `mutation AppendChatMessages($user_id: String!, $session_id: ID!, $messages: [ChatMessageInput!]!) { messages: append_chat_messages(user_id: $user_id, session_id: $session_id, messages: $messages) { ${CHAT_MESSAGE_FIELDS} } }`,
    );
    const propose = gateway.prepare(
      `mutation ProposeChatActions($user_id: String!, $session_id: ID!, $actions: [ChatActionInput!]!) { actions: propose_chat_actions(user_id: $user_id, session_id: $session_id, actions: $actions) { ${CHAT_ACTION_FIELDS} } }`,
    );
    const tools: AssistantTool[] = [...services.tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema })), ...services.actions.map(proposalTool)];
    const reads = new Map(services.tools.map((tool) => [tool.name, tool]));
    const writes = new Map(services.actions.map((tool) => [tool.name, tool]));

    return async ({ params, body: { content }, credentials, caller, inject, events }) => {
      const internal = { headers: {}, credentials: "internal" as const, trace_id: caller.trace_id, client_address: caller.client_address };
      const found = await gateway.execute({ ...caller, headers: credentials, credentials: "required", operation: session, variables: { id: params.session_id, last: CHAT_CONTEXT_MESSAGES } });
      if (found.errors?.length) throw errorFromGraphQL(found.errors);
      const { session: owned, messages } = found.data as { session: { id: string; user_id: string }; messages: StoredMessage[] };
      const history: ChatHistoryMessage[] = [...messages];
      const turn: StoredMessage[] = [];

      const store = async (next: NewMessage[]): Promise<void> => {
        const result = await gateway.execute({ ...internal, operation: append, variables: { user_id: owned.user_id, session_id: owned.id, messages: next } });
        if (result.errors?.length) throw errorFromGraphQL(result.errors);
        const stored = (result.data as { messages: StoredMessage[] }).messages;
        history.push(...stored);
        turn.push(...stored);
        for (const message of stored) events?.send("message", message);
      };

      // the one way a turn reaches the API: reads, and nothing else, whatever the model asks
      const read = async (tool: AgentTool, args: Record<string, unknown>) => {
        const toolCall = toolRequest(tool, args);
        if (toolCall.method !== "GET") throw new Error(`chat: ${tool.name} is not a read`);
        const { status, body } = await inject(toolCall);
        return { status, body };
      };
      const runTools = async (calls: { id: string; name: string; arguments: Record<string, unknown> }[]): Promise<Record<string, unknown>[]> => {
        const proposals: { index: number; action: Record<string, unknown> }[] = [];
        const results = await Promise.all(
          calls.map(async (toolCall, index): Promise<Record<string, unknown>> => {
            const tool = reads.get(toolCall.name);
            const write = writes.get(toolCall.name);
            try {
              if (tool) return await read(tool, toolCall.arguments);
              if (!write) return { status: 404, body: { detail: `No tool named ${toolCall.name}.` } };
              proposals.push({ index, action: proposedAction(write, toolRequest(write, toolCall.arguments), toolCall.id) });
              return {};
            } catch (error) {
              return refusedCall(error);
            }
          }),
        );
        if (proposals.length === 0) return results;
        const stored = await gateway.execute({ ...internal, operation: propose, variables: { user_id: owned.user_id, session_id: owned.id, actions: proposals.map((p) => p.action) } });
        if (stored.errors?.length) throw errorFromGraphQL(stored.errors);
        (stored.data as { actions: { id: string; session_id: string; status: string }[] }).actions.forEach((action, i) => {
          results[proposals[i]!.index] = {
            status: 202,
            body: { ...action, detail: "Not run: proposed to the user, who confirms or declines it. Tell the user what it does and that it waits for their confirmation.", _links: chatActionLinks(base_url, action) },
          };
        });
        return results;
      };

      events?.open();
      await store([{ type: "user", content }]);
      for (let round = 0; ; round++) {
        let step;
        try {
          step = await services.assistant.next(contextWindow(history), tools, new Date());
        } catch (error) {
          throw error instanceof AppError ? error : appError("CHT-502-001", undefined, { cause: error });
        }
        if (step.kind === "answer" || round === MAX_TOOL_ROUNDS) {
          const answer = step.kind === "answer" ? step.content : "I could not finish answering within the tool calls one turn allows; please ask a narrower question.";
          await store([{ type: "assistant", content: answer }]);
          break;
        }
        await store(step.calls.map((call) => ({ type: "tool_call", tool_call_id: call.id, tool_name: call.name, tool_arguments: call.arguments })));
        const results = await runTools(step.calls);
        await store(step.calls.map((call, i) => ({ type: "tool_result", tool_call_id: call.id, tool_name: call.name, tool_result: results[i]! })));
      }
      if (events) return undefined;
      const links = {
        self: link(href(base_url, "/v0/chat/sessions/{session_id}/messages", { session_id: owned.id })),
        session: link(href(base_url, "/v0/chat/sessions/{session_id}", { session_id: owned.id })),
      };
      return { status: 201, body: { items: turn, _links: links } };
    };
  },
});
