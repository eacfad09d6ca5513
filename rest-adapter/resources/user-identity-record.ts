import type { RestResource } from "../route-kit/resource-overlay.ts";

/** A looked-up user's identity record (GET /v0/users/{sri}, with idsvc.get_details or identity.read), written inline. */
export const resource = { type: "UserIdentityRecord", component: false, types: {} } satisfies RestResource;
