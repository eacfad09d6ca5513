import { Type } from "@sinclair/typebox";
import { CHAT_ACTION_STATUSES, CHAT_MESSAGE_TYPES } from "../../lib/vocabulary/agents.ts";
import { CHAT_ACTION_TTL_MS, MAX_CHAT_TITLE_LENGTH } from "../../lib/contracts/chat.ts";
import { href, link } from "../route-kit/links.ts";
import { defineRoute } from "../route-kit/route.ts";
import { literalUnion, Links, withLinks } from "../route-kit/schemas.ts";

export const CHAT_SESSION_FIELDS = "id title created_at updated_at";
export const CHAT_MESSAGE_FIELDS = "id session_id type content tool_call_id tool_name tool_arguments tool_result created_at";

export const ChatSession = Type.Object({
  id: Type.String({ description: "chs_<id>" }),
  title: Type.String(),
  created_at: Type.Integer(),
  updated_at: Type.Integer({ description: "when its latest message arrived" }),
});

export const ChatMessage = Type.Object({
  id: Type.String({ description: "msg_<id>" }),
  session_id: Type.String(),
  type: literalUnion(CHAT_MESSAGE_TYPES),
  content: Type.Union([Type.String(), Type.Null()], { description: "the text of user and assistant messages" }),
  tool_call_id: Type.Union([Type.String(), Type.Null()], { description: "pairs a tool_call with its tool_result" }),
  tool_name: Type.Union([Type.String(), Type.Null()], { description: "the AgentTool a tool_call runs (its MCP tool name)" }),
  tool_arguments: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  tool_result: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: "`{ status, body }`: the REST answer of the tool's route" }),
  created_at: Type.Integer(),
});

export const CHAT_ACTION_FIELDS = "id session_id tool_call_id tool_name method path body summary status result_status result expires_at decided_at created_at";

export const ChatAction = Type.Object({
  id: Type.String({ description: "act_<id>" }),
  session_id: Type.String(),
  tool_call_id: Type.String({ description: "the tool_call that proposed it" }),
  tool_name: Type.String({ description: "the AgentAction tool the assistant called" }),
  method: Type.String({ description: "the REST request it makes once confirmed: method, path and query, JSON body" }),
  path: Type.String(),
  body: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  summary: Type.String({ description: "what it does, to read before confirming; for a money movement, what moves where" }),
  status: literalUnion(CHAT_ACTION_STATUSES, { description: "proposed (waiting for you), confirmed (running), completed or failed (the write answered), declined, expired (not decided in time)" }),
  result_status: Type.Union([Type.Integer(), Type.Null()], { description: "the HTTP status the confirmed write answered" }),
  result: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: "the confirmed write's REST body" }),
  expires_at: Type.Integer(),
  decided_at: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.Integer(),
});

/** Where a proposed action is read and decided. */
export function chatActionLinks(base: string, action: { id: string; session_id: string; status: string }) {
  const at = (suffix: string) => href(base, `/v0/chat/sessions/{session_id}/actions/{action_id}${suffix}`, { session_id: action.session_id, action_id: action.id });
  return {
    list: link(href(base, "/v0/chat/sessions/{session_id}/actions", { session_id: action.session_id })),
    ...(action.status === "proposed" && { confirm: link(at("/confirm"), { method: "POST" }), decline: link(at("/decline"), { method: "POST" }) }),
  };
}

const SessionId = Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 64 }) });
const ActionId = Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 64 }), action_id: Type.String({ minLength: 1, maxLength: 64 }) });
const sessionHref = (base: string, id: string) => href(base, "/v0/chat/sessions/{session_id}", { session_id: id });
const sessionLinks = (base: string, id: string) => ({ self: link(sessionHref(base, id)), messages: link(href(base, "/v0/chat/sessions/{session_id}/messages", { session_id: id })) });

export const chatRoutes = [
  defineRoute({
    operationId: "createChatSession",
    method: "POST",
    path: "/v0/chat/sessions",
    tag: "Chat",
    summary: "Start a chat session with the assistant",
    description: "Then send messages with POST /v0/chat/sessions/{session_id}/messages. `title` defaults to \"New chat\".",
    security: ["PlatformJwt", "PlatformPat"],
    body: Type.Object({ title: Type.Optional(Type.Union([Type.String({ maxLength: MAX_CHAT_TITLE_LENGTH }), Type.Null()])) }),
    operation: `mutation CreateChatSession($title: String) { session: create_chat_session(title: $title) { ${CHAT_SESSION_FIELDS} } }`,
    variables: ({ body }) => ({ title: body.title ?? null }),
    result: (data) => data.session,
    status: 201,
    links: (body, { base_url }) => sessionLinks(base_url, body.id),
    responses: { 201: { description: "The session", schema: withLinks(ChatSession) } },
    errors: ["USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "listChatSessions",
    method: "GET",
    path: "/v0/chat/sessions",
    tag: "Chat",
    summary: "Your chat sessions, most recently active first",
    security: ["PlatformJwt", "PlatformPat"],
    operation: `query ListChatSessions { sessions: chat_sessions { ${CHAT_SESSION_FIELDS} } }`,
    result: (data) => ({ items: data.sessions }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/chat/sessions")) }),
    responses: { 200: { description: "The sessions", schema: Type.Object({ items: Type.Array(ChatSession), _links: Links }) } },
    errors: ["USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "getChatSession",
    method: "GET",
    path: "/v0/chat/sessions/{session_id}",
    tag: "Chat",
    summary: "One of your chat sessions",
    description: "Another user's session: 404 `CHT-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: SessionId,
    operation: `query GetChatSession($id: ID!) { session: chat_session(id: $id) { ${CHAT_SESSION_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.session_id }),
    result: (data) => data.session,
    links: (body, { base_url }) => sessionLinks(base_url, body.id),
    responses: { 200: { description: "The session", schema: withLinks(ChatSession) } },
    errors: ["CHT-404-001", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "listChatMessages",
    method: "GET",
    path: "/v0/chat/sessions/{session_id}/messages",
    tag: "Chat",
    summary: "A session's messages, in order",
    description:
      "Spec 2.10's types: `user` (what you wrote), `tool_call` (an AgentTool operation the assistant called, with its arguments), `tool_result` (that operation's REST answer, `{ status, body }`) and `assistant` (its answer). Another user's session: 404 `CHT-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: SessionId,
    operation: `query ListChatMessages($id: ID!) { messages: chat_messages(session_id: $id) { ${CHAT_MESSAGE_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.session_id }),
    result: (data) => ({ items: data.messages }),
    links: (_body, { base_url, params }) => sessionLinks(base_url, params.session_id),
    responses: { 200: { description: "The messages", schema: Type.Object({ items: Type.Array(ChatMessage), _links: Links }) } },
    errors: ["CHT-404-001", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "listChatActions",
    method: "GET",
    path: "/v0/chat/sessions/{session_id}/actions",
    tag: "Chat",
    summary: "The writes the assistant proposed in a session",
    description: `The assistant reads for you and changes nothing on its own: when it wants a write it proposes one (its \`tool_result\` says so), and the write runs only when you confirm it with POST …/actions/{action_id}/confirm, exactly as proposed, once, within ${CHAT_ACTION_TTL_MS / 60_000} minutes. Oldest first. Another user's session: 404 \`CHT-404-001\`.`,
    security: ["PlatformJwt", "PlatformPat"],
    params: SessionId,
    operation: `query ListChatActions($id: ID!) { actions: chat_actions(session_id: $id) { ${CHAT_ACTION_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.session_id }),
    result: (data) => ({ items: data.actions }),
    links: (_body, { base_url, params }) => ({ ...sessionLinks(base_url, params.session_id), self: link(href(base_url, "/v0/chat/sessions/{session_id}/actions", { session_id: params.session_id })) }),
    responses: { 200: { description: "The proposed actions", schema: Type.Object({ items: Type.Array(ChatAction), _links: Links }) } },
    errors: ["CHT-404-001", "USR-403-001", "USR-404-001"],
  }),
  defineRoute({
    operationId: "declineChatAction",
    method: "POST",
    path: "/v0/chat/sessions/{session_id}/actions/{action_id}/decline",
    tag: "Chat",
    summary: "Decline an action the assistant proposed",
    description: "Closes the proposal without running it. Already decided or expired: 409 `CHT-409-001`; another session's or user's: 404. An agent token cannot decide (only you can).",
    security: ["PlatformJwt", "PlatformPat"],
    params: ActionId,
    operation: `mutation DeclineChatAction($session_id: ID!, $id: ID!) { action: decide_chat_action(session_id: $session_id, id: $id, confirm: false) { ${CHAT_ACTION_FIELDS} } }`,
    variables: ({ params }) => ({ session_id: params.session_id, id: params.action_id }),
    result: (data) => data.action,
    links: (body, { base_url }) => chatActionLinks(base_url, body),
    responses: { 200: { description: "The action, declined", schema: withLinks(ChatAction) } },
    errors: ["CHT-404-001", "CHT-404-002", "CHT-409-001", "USR-403-001", "USR-404-001"],
  }),
];
