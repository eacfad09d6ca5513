import type { RestResource } from "../route-kit/resource-overlay.ts";
import { CHAT_MESSAGE_TYPES } from "../../lib/vocabulary/agents.ts";

/** A chat message in REST (Chat, spec 2.10), written inline by the routes that list and append them. */
export const resource = {
  type: "ChatMessage",
  component: false,
  types: {
    ChatMessage: {
      fields: {
        id: { description: "msg_<id>" },
        type: { values: CHAT_MESSAGE_TYPES },
        content: { orNull: { description: "the text of user and assistant messages" } },
        tool_call_id: { orNull: { description: "pairs a tool_call with its tool_result" } },
        tool_name: { orNull: { description: "the AgentTool a tool_call runs (its MCP tool name)" } },
        tool_result: { orNull: { description: "`{ status, body }`: the REST answer of the tool's route" } },
      },
    },
  },
} satisfies RestResource;
