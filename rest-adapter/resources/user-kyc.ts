import type { RestResource } from "../resource-overlay.ts";

/** A looked-up user's verification (GET /v0/users/{sri}, with idsvc.get_kyc or kyc.read), written inline. */
export const resource = { type: "UserKyc", component: false, types: {} } satisfies RestResource;
