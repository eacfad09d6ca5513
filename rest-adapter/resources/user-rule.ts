import type { RestResource } from "../resource-overlay.ts";
import { RULE_ACTIONS, RULE_TRIGGERS, USER_RULE_STATUSES } from "../../lib/vocabulary/agents.ts";

/** A user rule in REST (User Rules, spec 2.10), written inline by its routes. */
export const resource = {
  type: "UserRule",
  component: false,
  types: {
    UserRule: {
      fields: {
        status: { values: USER_RULE_STATUSES },
        trigger_type: { values: RULE_TRIGGERS },
        action_type: { values: RULE_ACTIONS },
      },
    },
  },
} satisfies RestResource;
