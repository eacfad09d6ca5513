import type { RestResource } from "../route-kit/resource-overlay.ts";

/**
 * A looked-up user's PINT balance (GET /v0/users/{sri}, with idsvc.get_pints), written inline: the
 * active mandates the key's organisation holds, each with what a relying party acts on.
 */
export const resource = {
  type: "UserPints",
  component: false,
  types: {
    UserPints: { fields: { active_count: { description: "mandates for this user that the key's organisation holds, neither revoked nor expired" } } },
    PintMandate: {
      omit: ["digest", "signer", "nonce", "user_id", "organisation_id", "revoked_at", "revoked_by", "status"],
      order: ["id", "audience", "scopes", "wallet", "chain_id", "signer_role", "expires_at", "created_at"],
    },
  },
} satisfies RestResource;
