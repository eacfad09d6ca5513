import type { RestResource } from "../route-kit/resource-overlay.ts";
import { CHAT_ACTION_STATUSES } from "../../lib/vocabulary/agents.ts";

/** A write the assistant proposed, in REST (Chat, spec 2.10), written inline by the routes that list, decide and propose them; the owner stays out of the answer. */
export const resource = {
  type: "ChatAction",
  component: false,
  types: {
    ChatAction: {
      omit: ["user_id"],
      fields: {
        id: { description: "act_<id>" },
        tool_call_id: { description: "the tool_call that proposed it" },
        tool_name: { description: "the AgentAction tool the assistant called" },
        method: { description: "the REST request it makes once confirmed: method, path and query, JSON body" },
        summary: { description: "what it does, to read before confirming; for a money movement, what moves where" },
        status: {
          values: CHAT_ACTION_STATUSES,
          description: "proposed (waiting for you), confirmed (running), completed or failed (the write answered), declined, expired (not decided in time)",
        },
        result_status: { orNull: { description: "the HTTP status the confirmed write answered" } },
        result: { orNull: { description: "the confirmed write's REST body" } },
      },
    },
  },
} satisfies RestResource;
