import type { RestResource } from "../resource-overlay.ts";

/** An organisation's outgoing event (GET /v0/organisation/{org_id}/events; none emitted yet), written inline. */
export const resource = { type: "OrganisationEvent", component: false, types: {} } satisfies RestResource;
