import { MAX_CHAT_TITLE_LENGTH } from "../../lib/contracts/chat.ts";
import type { RestResource } from "../route-kit/resource-overlay.ts";

/** A chat session in REST (Chat, spec 2.10), written inline by its routes; the owner stays out of the answer. Its body from CreateChatSessionInput. */
export const resource = {
  type: "ChatSession",
  component: false,
  inputs: { CreateChatSessionInput: "ChatSession" },
  types: {
    ChatSession: {
      omit: ["user_id"],
      fields: { id: { description: "chs_<id>" }, updated_at: { description: "when its latest message arrived" } },
    },
    CreateChatSessionInput: { fields: { title: { maxLength: MAX_CHAT_TITLE_LENGTH } } },
  },
} satisfies RestResource;
