import type { RestResource } from "../route-kit/resource-overlay.ts";

/** A chat session in REST (Chat, spec 2.10), written inline by its routes; the owner stays out of the answer. */
export const resource = {
  type: "ChatSession",
  component: false,
  types: {
    ChatSession: {
      omit: ["user_id"],
      // updated_at answers as every instant does (EpochMs), GraphQL's "when its latest message arrived" aside
      fields: { id: { description: "chs_<id>" } },
    },
  },
} satisfies RestResource;
