import { Type } from "@sinclair/typebox";
import { CHAT_ACTION_TTL_MS } from "../../../lib/contracts/chat.ts";
import { errorFromGraphQL } from "../../route-kit/graphql-errors.ts";
import { href, link } from "../../route-kit/links.ts";
import { defineComposedRoute } from "../../route-kit/route.ts";
import { chatActionLinks } from "../../routes/chat.ts";
import { CHAT_ACTION_FIELDS, ChatAction } from "../../resources/resources.generated.ts";
import { withLinks } from "../../route-kit/schemas.ts";

const ActionId = Type.Object({ session_id: Type.String({ minLength: 1, maxLength: 64 }), action_id: Type.String({ minLength: 1, maxLength: 64 }) });

/**
 * POST /v0/chat/sessions/{session_id}/actions/{action_id}/confirm: the user's decision, then the
 * stored request made as the user (so the route's own authorisation, validation and limits
 * apply), its answer recorded on the action and told in the session.
 */
export const confirmChatActionRoute = defineComposedRoute({
  operationId: "confirmChatAction",
  method: "POST",
  path: "/v0/chat/sessions/{session_id}/actions/{action_id}/confirm",
  tag: "Chat",
  summary: "Confirm an action the assistant proposed: it runs now, once",
  description: [
    `The assistant never writes on its own. A write it wants is stored as a proposal (\`GET /v0/chat/sessions/{session_id}/actions\`: its \`summary\` says what it does and, for money, what moves where; \`method\`, \`path\` and \`body\` are the exact request). Confirming runs exactly that request, with your credential (JWT or PAT with \`write\`; an agent token cannot confirm), once, within ${CHAT_ACTION_TTL_MS / 60_000} minutes of the proposal, with the action id as its \`Idempotency-Key\`.`,
    "Answers the action with the write's answer: `completed` and its `result` for a 2xx, `failed` with the write's ProblemDetail in `result` otherwise. Already confirmed or declined, or expired: 409 `CHT-409-001`; another session's or user's action: 404 `CHT-404-002`.",
    "A confirmed action still without its answer a minute after the confirmation (its run was interrupted, e.g. by a restart) runs again on a new confirmation, with the same `Idempotency-Key`: a write that ran answers its first answer and is not made twice. That holds within a day of the proposal (the key's retention); later such an action stays `confirmed` (409).",
  ].join("\n\n"),
  security: ["PlatformJwt", "PlatformPat"],
  params: ActionId,
  responses: { 200: { description: "The action, run", schema: withLinks(ChatAction) } },
  errors: ["CHT-404-001", "CHT-404-002", "CHT-409-001", "USR-403-001", "USR-404-001"],
  handler: ({ gateway, base_url }) => {
    const decide = gateway.prepare(`mutation ConfirmChatAction($session_id: ID!, $id: ID!) { action: decide_chat_action(session_id: $session_id, id: $id, confirm: true) { user_id ${CHAT_ACTION_FIELDS} } }`);
    const settle = gateway.prepare(
      `mutation SettleChatAction($id: ID!, $result_status: Int!, $result: JSONObject) { action: settle_chat_action(id: $id, result_status: $result_status, result: $result) { ${CHAT_ACTION_FIELDS} } }`,
    );
    const tell = gateway.prepare(`mutation TellChatAction($user_id: String!, $session_id: ID!, $messages: [ChatMessageInput!]!) { messages: append_chat_messages(user_id: $user_id, session_id: $session_id, messages: $messages) { id } }`);

    return async ({ params, credentials, caller, inject }) => {
      const internal = { headers: {}, credentials: "internal" as const, trace_id: caller.trace_id, client_address: caller.client_address };
      const decided = await gateway.execute({ headers: credentials, credentials: "required", trace_id: caller.trace_id, client_address: caller.client_address, operation: decide, variables: { session_id: params.session_id, id: params.action_id } });
      if (decided.errors?.length) throw errorFromGraphQL(decided.errors);
      const action = (decided.data as { action: { id: string; user_id: string; session_id: string; method: string; path: string; body: Record<string, unknown> | null; summary: string } }).action;

      const answer = await inject({ method: action.method as "POST", url: action.path, headers: { "idempotency-key": action.id }, ...(action.body && { body: action.body }) });
      const result = answer.body && typeof answer.body === "object" && !Array.isArray(answer.body) ? (answer.body as Record<string, unknown>) : null;
      const settled = await gateway.execute({ ...internal, operation: settle, variables: { id: action.id, result_status: answer.status, result } });
      if (settled.errors?.length) throw errorFromGraphQL(settled.errors);
      const done = (settled.data as { action: { id: string; session_id: string; status: string } }).action;
      const told = await gateway.execute({
        ...internal,
        operation: tell,
        variables: { user_id: action.user_id, session_id: action.session_id, messages: [{ type: "assistant", content: `You confirmed action ${action.id}; it ${done.status} (HTTP ${answer.status}).\n${action.summary}` }] },
      });
      if (told.errors?.length) throw errorFromGraphQL(told.errors);

      const links = { ...chatActionLinks(base_url, done), session: link(href(base_url, "/v0/chat/sessions/{session_id}", { session_id: done.session_id })) };
      return { status: 200, body: { ...done, _links: links } };
    };
  },
});
