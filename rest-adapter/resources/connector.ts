import type { RestResource, TypeOverlay } from "../route-kit/resource-overlay.ts";

/** The catalogue's connector, also inside a user's connection (user-connector.ts). */
export const CONNECTOR: TypeOverlay = { fields: { auth: { values: ["api_key", "oauth", "open_banking"] } } };

/** A connector of the catalogue in REST (Connectors, spec 2.10), written inline by its routes. */
export const resource = { type: "Connector", component: false, types: { Connector: CONNECTOR } } satisfies RestResource;
