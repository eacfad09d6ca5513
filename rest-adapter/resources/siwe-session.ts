import type { RestResource } from "../route-kit/resource-overlay.ts";

/** What POST /v0/auth/siwe/verify answers, written inline with _links; its body from SiweVerifyInput. */
export const resource = {
  type: "SiweSession",
  component: false,
  inputs: { SiweVerifyInput: "SiweSession" },
  types: {
    SiweSession: {
      // the token's iss, which REST leaves to the token
      omit: ["issuer"],
      fields: {
        token: { description: "JWT for x-platform-jwt: iss the siwe provider's issuer, sub the checksummed address, aud the provider's audience if configured, chain_id" },
        token_type: { values: ["JWT"] },
        address: { description: "checksummed address that signed in (the token's sub, the user's auth_provider_id)" },
      },
    },
    SiweVerifyInput: { fields: { message: { minLength: 1, maxLength: 8192 }, signature: { pattern: "^0x([0-9a-fA-F]{2})+$", maxLength: 32768 } } },
  },
} satisfies RestResource;
