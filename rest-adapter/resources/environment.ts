import type { RestResource, TypeOverlay } from "../resource-overlay.ts";

/** An environment and its sign-in settings, also inside an organisation (organisation.ts). */
export const ENVIRONMENT: Record<string, TypeOverlay> = {
  Environment: { fields: { kind: { description: "shown in the prefix of the environment's keys" } } },
  EnvironmentAuth: { fields: { provider_configs: { description: "the providers as set with `auth_providers`" } } },
};

/** An environment of an organisation in REST (spec 2.5), written inline by the identity host's routes. */
export const resource = { type: "Environment", component: false, types: ENVIRONMENT } satisfies RestResource;
