import type { RestResource, TypeOverlay } from "../route-kit/resource-overlay.ts";

/** A member, also inside an organisation (organisation.ts). */
export const MEMBER: TypeOverlay = {
  fields: {
    issuer: { orNull: { description: "the dashboard session token's issuer (DASHBOARD_AUTH); null: recorded before issuers were and matching no token until added again" } },
    sub: { description: "the dashboard session token's subject" },
  },
};

/** A member of an organisation in REST (spec 2.5), written inline by the identity host's routes; its bodies from AddMemberInput and UpdateMemberRoleInput. */
export const resource = {
  type: "Member",
  component: false,
  inputs: { AddMemberInput: "Member", UpdateMemberRoleInput: "Member" },
  types: {
    Member: MEMBER,
    AddMemberInput: {
      fields: {
        issuer: {
          acceptsNull: false,
          minLength: 1,
          description: "the DASHBOARD_AUTH issuer of the member's session tokens (`iss`); default: the caller's",
          examples: ["https://auth.dashboard.example.com"],
        },
        sub: { minLength: 1, description: "the member's session token `sub`" },
        email: { format: "email" },
        role: { acceptsNull: false },
      },
    },
    UpdateMemberRoleInput: { additionalProperties: false },
  },
} satisfies RestResource;
