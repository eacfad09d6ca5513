import type { RestResource } from "../route-kit/resource-overlay.ts";

/** The user's phone in REST (GET /v0/user/me/phone and its confirmation), written inline with _links. */
export const resource = { type: "PhoneState", component: false, types: {} } satisfies RestResource;
