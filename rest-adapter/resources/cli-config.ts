import type { RestResource } from "../route-kit/resource-overlay.ts";

/** The CLI toggles GET /v0/cli/config answers, written inline with _links. */
export const resource = { type: "CliConfig", component: false, types: {} } satisfies RestResource;
