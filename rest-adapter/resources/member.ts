import type { RestResource, TypeOverlay } from "../resource-overlay.ts";

/** A member, also inside an organisation (organisation.ts). */
export const MEMBER: TypeOverlay = {
  fields: {
    issuer: { orNull: { description: "the dashboard session token's issuer (DASHBOARD_AUTH); null: recorded before issuers were and matching no token until added again" } },
    sub: { description: "the dashboard session token's subject" },
  },
};

/** A member of an organisation in REST (spec 2.5), written inline by the identity host's routes. */
export const resource = { type: "Member", component: false, types: { Member: MEMBER } } satisfies RestResource;
