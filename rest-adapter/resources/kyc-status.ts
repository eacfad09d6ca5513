import type { RestResource } from "../route-kit/resource-overlay.ts";

/** The user's verification status in REST (GET /v0/kyc/status, POST /v0/kyc/submissions), written inline. */
export const resource = { type: "KycStatus", component: false, types: {} } satisfies RestResource;
