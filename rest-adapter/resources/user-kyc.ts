import type { RestResource } from "../route-kit/resource-overlay.ts";

/** A looked-up user's verification (GET /v0/users/{sri}, with idsvc.get_kyc or kyc.read), written inline. */
export const resource = { type: "UserKyc", component: false, types: {} } satisfies RestResource;
