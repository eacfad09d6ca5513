import type { RestResource } from "../route-kit/resource-overlay.ts";

const ID = { examples: ["stg_round_up"] };

/** A strategy of the catalogue in REST (spec 2.10), written inline by its routes. */
export const resource = {
  type: "Strategy",
  component: false,
  types: {
    Strategy: {
      fields: {
        id: ID,
        parameters_schema: { description: "the JSON Schema a user strategy's `parameters` must meet (defaults filled in)" },
      },
    },
  },
} satisfies RestResource;
