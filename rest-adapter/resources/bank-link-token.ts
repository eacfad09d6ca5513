import type { RestResource } from "../route-kit/resource-overlay.ts";

/** The link token POST /v0/bank-accounts/link-token answers, written inline. */
export const resource = { type: "BankLinkToken", component: false, types: {} } satisfies RestResource;
