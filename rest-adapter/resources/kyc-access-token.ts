import type { RestResource } from "../route-kit/resource-overlay.ts";

/** The SDK token POST /v0/kyc/access-token answers, written inline with _links. */
export const resource = { type: "KycAccessToken", component: false, types: {} } satisfies RestResource;
