import type { RestResource } from "../route-kit/resource-overlay.ts";

/** An organisation's outgoing event (GET /v0/organisation/{org_id}/events; none emitted yet), written inline. */
export const resource = { type: "OrganisationEvent", component: false, types: {} } satisfies RestResource;
