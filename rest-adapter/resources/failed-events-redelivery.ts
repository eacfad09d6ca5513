import type { RestResource } from "../route-kit/resource-overlay.ts";

/** The answer of POST /v0/organisation/{org_id}/events/redeliver, written inline. */
export const resource = { type: "FailedEventsRedelivery", component: false, types: {} } satisfies RestResource;
