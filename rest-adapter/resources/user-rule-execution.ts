import type { RestResource } from "../route-kit/resource-overlay.ts";
import { RULE_EXECUTION_OUTCOMES } from "../../lib/vocabulary/agents.ts";

/** One firing of a user rule in REST (GET /v0/user/me/rules/{rule_id}/executions), written inline. */
export const resource = {
  type: "UserRuleExecution",
  component: false,
  types: {
    UserRuleExecution: {
      fields: {
        event_key: { description: "ledger:<event id>, time:<slot>, price:<asset>:<side>:<instant>: one firing per rule and key" },
        outcome: {
          values: RULE_EXECUTION_OUTCOMES,
          description: "`fired` (its action done or queued), `failed` (with why), `skipped` (inside its cooldown), `stopped` (a loop, a chain too deep or its hourly cap: the rule was put in `error`)",
        },
      },
    },
  },
} satisfies RestResource;
