import type { RestResource } from "../route-kit/resource-overlay.ts";

/** The public token the sandbox bank link answers, written inline. */
export const resource = { type: "BankPublicToken", component: false, types: {} } satisfies RestResource;
