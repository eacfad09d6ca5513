import type { RestResource } from "../route-kit/resource-overlay.ts";
import { AGENT_TOKEN_SCOPES } from "../../lib/vocabulary/agents.ts";
import { MAX_AGENT_TOKEN_DAYS, MAX_AGENT_TOKEN_NAME_LENGTH, MAX_AGENT_TOKEN_WALLETS } from "../../lib/contracts/agent-tokens.ts";

/** An agent token in REST (spec 5.1.9), its secret only once at creation; written inline by its routes. Its body from CreateAgentTokenInput. */
export const resource = {
  type: "AgentToken",
  component: false,
  inputs: { CreateAgentTokenInput: "AgentToken" },
  types: {
    AgentToken: {
      fields: {
        id: { description: "agt_<id>" },
        scopes: { description: `Of ${AGENT_TOKEN_SCOPES.join(", ")}.` },
        last_used_at: { orNull: { description: "the instant of the latest request made with it" } },
      },
    },
    CreateAgentTokenInput: {
      fields: {
        name: { minLength: 1, maxLength: MAX_AGENT_TOKEN_NAME_LENGTH },
        scopes: { examples: [["read:transactions", "read:balances"]] },
        expires_in_days: { minimum: 1, maximum: MAX_AGENT_TOKEN_DAYS },
        wallet_ids: { minItems: 1, maxItems: MAX_AGENT_TOKEN_WALLETS, item: { minimum: 1 } },
      },
    },
  },
} satisfies RestResource;
