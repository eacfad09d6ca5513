import { Type } from "@sinclair/typebox";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { PLATFORM_CREDENTIAL_HEADERS } from "../../lib/auth/credential-headers.ts";
import { AppError, appError } from "../../lib/errors/app-error.ts";
import { MAX_CHAT_MESSAGE_LENGTH } from "../../subgraphs/agents/chat/chat-sessions.ts";
import { fastifyPath, pick, validate } from "../app.ts";
import type { GatewayClient } from "../gateway-client.ts";
import { errorFromGraphQL } from "../graphql-errors.ts";
import { href, link } from "../links.ts";
import { toolRequest, type AgentTool } from "../mcp/agent-tools.ts";
import { injectingCaller } from "../mcp/tool-caller.ts";
import type { DocumentedRoute } from "../openapi.ts";
import { renderProblem } from "../problem.ts";
import { CHAT_MESSAGE_FIELDS, ChatMessage } from "../routes/chat.ts";
import { Links } from "../schemas.ts";
import { applyTimestampFormat, timestampFormat } from "../timestamps.ts";
import { compileValidator } from "../../lib/json-validation.ts";
import { MAX_TOOL_RESULT_CHARS, type Assistant, type AssistantTool, type ChatHistoryMessage } from "./assistant.ts";
import { CHAT_CONTEXT_CHARS, CHAT_CONTEXT_MESSAGES, contextWindow } from "./context-window.ts";

/** Tool rounds per turn at most: a model that keeps calling tools is stopped with an answer saying so. */
export const MAX_TOOL_ROUNDS = 6;

const SessionId = Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 64 }) });
const TurnBody = Type.Object({ content: Type.String({ minLength: 1, maxLength: MAX_CHAT_MESSAGE_LENGTH }) });

export const chatTurnDocumentation: DocumentedRoute = {
  operationId: "sendChatMessage",
  method: "POST",
  path: "/v0/chat/sessions/{session_id}/messages",
  tag: "Chat",
  summary: "Ask the assistant",
  description: [
    "Stores your message, lets the assistant answer from your own data and answers the turn's messages in order: yours, then each `tool_call` the assistant made with the `tool_result` it got, then its `assistant` answer. The tools are the AgentTool operations (read-only), run with your own credential: the assistant sees what you may see and changes nothing.",
    "With `Accept: text/event-stream` the messages stream as server-sent events as they are stored (`event: message`, the message as `data`), then `event: done`; a failure after the stream began is `event: error` with the ProblemDetail.",
    "The built-in assistant (the default) answers balances, spending in a category over a period (\"how much did I spend on groceries this month?\"), the biggest expenses, budgets and insights; with `LLM_BASE_URL` set, an OpenAI-compatible model answers. If the model fails, your message stays and the answer is 502 `CHT-502-001`. Another user's session: 404 `CHT-404-001`.",
    `The session keeps every message; the assistant sees this turn whole and, before it, the latest earlier turns that fit in about ${CHAT_CONTEXT_CHARS.toLocaleString("en-US")} characters (tool results counted at the ${MAX_TOOL_RESULT_CHARS.toLocaleString("en-US")} characters the model is shown of each).`,
  ].join("\n\n"),
  security: ["PlatformJwt", "PlatformPat"],
  params: SessionId,
  body: TurnBody,
  responses: { 201: { description: "The turn's messages, in order", schema: Type.Object({ items: Type.Array(ChatMessage), _links: Links }) } },
  errors: ["CHT-404-001", "CHT-502-001", "USR-403-001", "USR-404-001"],
};

export interface ChatTurnOptions {
  gateway: GatewayClient;
  assistant: Assistant;
  tools: readonly AgentTool[];
  baseUrl: string;
}

type StoredMessage = ChatHistoryMessage & { id: string };
type NewMessage = Omit<ChatHistoryMessage, "content" | "tool_call_id" | "tool_name" | "tool_arguments" | "tool_result"> & Partial<ChatHistoryMessage>;

/**
 * POST /v0/chat/sessions/{session_id}/messages: one turn. The session is read with the caller's
 * credential (another user's is CHT-404-001; an agent token is refused there), every message is
 * stored as the adapter (`append_chat_messages`) the moment it exists, and each tool call is the
 * AgentTool route's REST request injected into this listener with the caller's credential.
 */
export function registerChatTurn(app: FastifyInstance, options: ChatTurnOptions): void {
  const session = options.gateway.prepare(`query ChatTurnSession($id: ID!, $last: Int!) { session: chat_session(id: $id) { id user_id } messages: chat_messages(session_id: $id, last: $last) { ${CHAT_MESSAGE_FIELDS} } }`);
  const append = options.gateway.prepare(
    `mutation AppendChatMessages($user_id: String!, $session_id: ID!, $messages: [ChatMessageInput!]!) { messages: append_chat_messages(user_id: $user_id, session_id: $session_id, messages: $messages) { ${CHAT_MESSAGE_FIELDS} } }`,
  );
  const validators = { path: compileValidator(SessionId, "path"), body: compileValidator(TurnBody, "body") };
  const tools: AssistantTool[] = options.tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema }));
  const byName = new Map(options.tools.map((tool) => [tool.name, tool]));

  app.post(fastifyPath(chatTurnDocumentation.path), async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { session_id: string };
    validate(validators, { path: params, body: request.body });
    const { content } = request.body as { content: string };
    const headers = pick(request.headers, PLATFORM_CREDENTIAL_HEADERS);
    const asCaller = { headers, credentials: "required" as const, trace_id: request.id, client_address: request.ip, user_agent: request.headers["user-agent"] };

    const found = await options.gateway.execute({ ...asCaller, operation: session, variables: { id: params.session_id, last: CHAT_CONTEXT_MESSAGES } });
    if (found.errors?.length) throw errorFromGraphQL(found.errors);
    const { session: owned, messages } = found.data as { session: { id: string; user_id: string }; messages: StoredMessage[] };
    const history: ChatHistoryMessage[] = [...messages];
    const format = timestampFormat(request.headers["x-timestamp-format"]);
    const stream = request.headers.accept?.includes("text/event-stream") ?? false;
    const turn: StoredMessage[] = [];

    const store = async (next: NewMessage[]): Promise<void> => {
      const result = await options.gateway.execute({
        operation: append,
        variables: { user_id: owned.user_id, session_id: owned.id, messages: next },
        headers: {},
        credentials: "internal",
        trace_id: request.id,
        client_address: request.ip,
      });
      if (result.errors?.length) throw errorFromGraphQL(result.errors);
      const stored = (result.data as { messages: StoredMessage[] }).messages;
      history.push(...stored);
      turn.push(...stored);
      if (stream) for (const message of stored) reply.raw.write(`event: message\ndata: ${JSON.stringify(applyTimestampFormat(message, format))}\n\n`);
    };

    const call = injectingCaller(app, Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === "string")), request);
    const runTool = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const tool = byName.get(name);
      if (!tool) return { status: 404, body: { detail: `No tool named ${name}.` } };
      return call(toolRequest(tool, args));
    };

    if (stream) {
      reply.hijack();
      reply.raw.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", "x-request-id": request.id });
    }
    try {
      await store([{ type: "user", content }]);
      for (let round = 0; ; round++) {
        let step;
        try {
          step = await options.assistant.next(contextWindow(history), tools, new Date());
        } catch (error) {
          throw error instanceof AppError ? error : appError("CHT-502-001", undefined, { cause: error });
        }
        if (step.kind === "answer" || round === MAX_TOOL_ROUNDS) {
          const answer = step.kind === "answer" ? step.content : "I could not finish answering within the tool calls one turn allows; please ask a narrower question.";
          await store([{ type: "assistant", content: answer }]);
          break;
        }
        await store(step.calls.map((call) => ({ type: "tool_call", tool_call_id: call.id, tool_name: call.name, tool_arguments: call.arguments })));
        const results = await Promise.all(step.calls.map(async (call) => ({ call, result: await runTool(call.name, call.arguments) })));
        await store(results.map(({ call, result }) => ({ type: "tool_result", tool_call_id: call.id, tool_name: call.name, tool_result: result })));
      }
    } catch (error) {
      if (!stream) throw error;
      const problem = error instanceof AppError ? error : appError("GEN-500-001", undefined, { cause: error });
      if (!(error instanceof AppError)) request.log.error({ err: error }, "chat turn failed");
      reply.raw.end(`event: error\ndata: ${JSON.stringify(renderProblem(problem, { trace_id: request.id, base_url: options.baseUrl, docs_url: options.baseUrl, style: "platform", instance: request.url }))}\n\n`);
      return reply;
    }
    if (stream) {
      reply.raw.end("event: done\ndata: {}\n\n");
      return reply;
    }
    const links = {
      self: link(href(options.baseUrl, "/v0/chat/sessions/{session_id}/messages", { session_id: owned.id })),
      session: link(href(options.baseUrl, "/v0/chat/sessions/{session_id}", { session_id: owned.id })),
    };
    return reply.code(201).send(applyTimestampFormat({ items: turn, _links: links }, format));
  });
}
