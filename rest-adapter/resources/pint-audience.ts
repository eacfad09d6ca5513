import type { RestResource } from "../route-kit/resource-overlay.ts";

const EXAMPLE = "com.example.wallet-app";

/** A PINT audience in REST, written inline by the identity host's audience routes; its body from RegisterPintAudienceInput. */
export const resource = {
  type: "PintAudience",
  component: false,
  inputs: { RegisterPintAudienceInput: "PintAudience" },
  types: {
    PintAudience: {
      fields: {
        id: { examples: ["aud_01jb4x8w5n6p7q8r9s0t1v2w3x"] },
        identifier: { examples: [EXAMPLE] },
        audience: { examples: [`org_01jb4x8w5n6p7q8r9s0t1v2w3x:${EXAMPLE}`] },
      },
    },
    RegisterPintAudienceInput: { fields: { identifier: { pattern: "^[A-Za-z0-9][A-Za-z0-9._:/-]{2,199}$", examples: [EXAMPLE] }, name: { maxLength: 100 } } },
  },
} satisfies RestResource;
