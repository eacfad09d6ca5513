import type { RestResource } from "../resource-overlay.ts";
import { AGENT_TASK_STATUSES } from "../../lib/vocabulary/agents.ts";

/** An agent task in REST (spec 3.5), written inline by its routes. */
export const resource = {
  type: "AgentTask",
  component: false,
  types: { AgentTask: { fields: { status: { values: AGENT_TASK_STATUSES, description: "spec 3.5" } } } },
} satisfies RestResource;
