import type { RestResource } from "../route-kit/resource-overlay.ts";

/** What POST /v0/auth/siwe/nonce answers, written inline with _links: the nonce and the values the EIP-4361 message must carry. */
export const resource = {
  type: "SiweChallenge",
  component: false,
  types: {
    SiweChallenge: {
      fields: {
        nonce: { description: "32 hex characters (128 random bits); the message's Nonce line", examples: ["9f86d081884c7d659a2feaa0c55ad015"] },
        domain: { description: "host[:port] of the platform's public URL: the message's domain must be exactly this", examples: ["api.example.com"] },
        uri: { description: "suggested URI line (the platform's public URL); not checked" },
        version: { values: ["1"] },
      },
    },
  },
} satisfies RestResource;
