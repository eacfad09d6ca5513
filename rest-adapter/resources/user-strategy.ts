import type { RestResource } from "../route-kit/resource-overlay.ts";

/** A strategy the user turned on, in REST (spec 3.6), written inline by its routes; its bodies from EnableStrategyInput and UpdateUserStrategyInput. */
export const resource = {
  type: "UserStrategy",
  component: false,
  inputs: { EnableStrategyInput: "UserStrategy", UpdateUserStrategyInput: "UserStrategy" },
  types: {
    UserStrategy: {
      fields: {
        status: { description: "spec 3.6; see the transitions in the description" },
        last_run_at: { orNull: { description: "the instant its last successful run covered up to" } },
      },
    },
    StrategySummary: { fields: { id: { examples: ["stg_round_up"] } } },
    UserStrategyStatusChange: { fields: { cause: { values: ["user", "run_failures"] } } },
    EnableStrategyInput: { fields: { strategy_id: { minLength: 1, maxLength: 64 } } },
    // REST refuses null where GraphQL reads it as unchanged
    UpdateUserStrategyInput: { minProperties: 1, fields: { parameters: { acceptsNull: false }, status: { acceptsNull: false } } },
  },
} satisfies RestResource;
