import type { RestResource } from "../route-kit/resource-overlay.ts";

/** A personal access token in REST (CLI), its secret only once at creation; written inline by its routes. Its body from CreatePersonalAccessTokenInput. */
export const resource = {
  type: "PersonalAccessToken",
  component: false,
  inputs: { CreatePersonalAccessTokenInput: "PersonalAccessToken" },
  types: {
    CreatePersonalAccessTokenInput: {
      fields: { name: { minLength: 1, maxLength: 100 }, scopes: { minItems: 1 }, expires_in_days: { minimum: 1, maximum: 366 } },
    },
  },
} satisfies RestResource;
