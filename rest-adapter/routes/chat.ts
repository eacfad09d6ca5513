import { Type } from "@sinclair/typebox";
import { CHAT_ACTION_TTL_MS } from "../../lib/contracts/chat.ts";
import { href, link } from "../route-kit/links.ts";
import { defineRoute } from "../route-kit/route.ts";
import { Links, withLinks } from "../route-kit/schemas.ts";
import { CHAT_ACTION_FIELDS, CHAT_MESSAGE_FIELDS, CHAT_SESSION_FIELDS, ChatAction, ChatMessage, ChatSession, CreateChatSessionInput } from "../resources/resources.generated.ts";

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
    body: CreateChatSessionInput,
    operation: `mutation CreateChatSession($input: CreateChatSessionInput) { session: create_chat_session(input: $input) { ${CHAT_SESSION_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
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
