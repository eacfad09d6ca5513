import type { RestResource } from "../route-kit/resource-overlay.ts";

/** An API key in REST (spec 2.6), its secret only in the mint answer; written inline by its routes. Its body from MintApiKeyInput. */
export const resource = {
  type: "ApiKey",
  component: false,
  inputs: { MintApiKeyInput: "ApiKey" },
  types: {
    ApiKey: { fields: { key_prefix: { description: "the key's first characters, e.g. idsvc_sk_live_Ab12" } } },
    MintApiKeyInput: { fields: { name: { minLength: 1, maxLength: 100 }, env_id: { minLength: 1 } } },
  },
} satisfies RestResource;
