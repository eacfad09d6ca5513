import type { RestResource } from "../route-kit/resource-overlay.ts";

/** The JWKS that verifies PINT JWTs (GET /.well-known/jwks.json), written inline. */
export const resource = { type: "PintJwks", component: false, types: {} } satisfies RestResource;
