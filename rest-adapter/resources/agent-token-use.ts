import type { RestResource } from "../route-kit/resource-overlay.ts";

/** One request made with an agent token, in REST (GET /v0/agent/tokens/{token_id}/uses), written inline. */
export const resource = {
  type: "AgentTokenUse",
  component: false,
  types: {
    AgentTokenUse: {
      fields: {
        outcome: { description: "`ok`, or the error code the request was answered with (e.g. AGT-403-001)." },
      },
    },
  },
} satisfies RestResource;
