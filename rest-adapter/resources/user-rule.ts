import type { RestResource } from "../route-kit/resource-overlay.ts";

const NAME = { minLength: 1, maxLength: 120 };

/** A user rule in REST (User Rules, spec 2.10), written inline by its routes; its bodies from CreateUserRuleInput and UpdateUserRuleInput. */
export const resource = {
  type: "UserRule",
  component: false,
  inputs: { CreateUserRuleInput: "UserRule", UpdateUserRuleInput: "UserRule" },
  types: {
    // REST refuses null where GraphQL reads it as absent: absent enables a new rule, and leaves a rule's field unchanged
    CreateUserRuleInput: { fields: { name: NAME, enabled: { acceptsNull: false, default: true } } },
    UpdateUserRuleInput: { minProperties: 1, fields: { name: { ...NAME, acceptsNull: false }, enabled: { acceptsNull: false } } },
  },
} satisfies RestResource;
