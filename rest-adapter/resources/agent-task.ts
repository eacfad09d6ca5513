import { Type } from "@sinclair/typebox";
import type { RestResource } from "../route-kit/resource-overlay.ts";

/** When a task may start, as REST takes it: epoch milliseconds or an ISO 8601 string. */
export const ScheduledAt = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ format: "date-time" })], { description: "epoch milliseconds, or an ISO 8601 instant" });

/** An agent task in REST (spec 3.5), written inline by its routes; its body from CreateAgentTaskInput. */
export const resource = {
  type: "AgentTask",
  component: false,
  inputs: { CreateAgentTaskInput: "AgentTask" },
  types: {
    AgentTask: { fields: { status: { description: "spec 3.5" } } },
    // REST refuses null where GraphQL reads it as absent
    CreateAgentTaskInput: {
      fields: {
        kind: { minLength: 1, maxLength: 64, examples: ["strategy_run"] },
        input: { acceptsNull: false },
        scheduled_at: { schema: ScheduledAt, acceptsNull: false },
        title: { minLength: 1, maxLength: 200, acceptsNull: false },
      },
    },
  },
} satisfies RestResource;
