import type { RestResource } from "../route-kit/resource-overlay.ts";

/** A code sent to the user's phone in REST (POST /v0/user/me/phone/verification), written inline with _links. */
export const resource = { type: "PhoneVerificationChallenge", component: false, types: {} } satisfies RestResource;
