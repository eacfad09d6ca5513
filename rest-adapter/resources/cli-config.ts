import type { RestResource } from "../route-kit/resource-overlay.ts";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { withLinks } from "../route-kit/schemas.ts";
import type * as Generated from "./resources.generated.ts";

/** The CLI toggles GET /v0/cli/config answers, written inline with _links. */
export const resource = { type: "CliConfig", component: false, types: {} } satisfies RestResource;

export const routes = ({ CLI_CONFIG_FIELDS, CliConfig }: typeof Generated) => [
  defineRoute({
    operationId: "getCliConfig",
    method: "GET",
    path: "/v0/cli/config",
    tag: "User",
    summary: "CLI toggles",
    description: "With `x-platform-pat`: toggles resolved for the owning user. Without one, or with one that does not verify: deployment-wide defaults (`CLI_DEBUG`). Always 200.",
    security: ["PlatformPat"],
    optionalSecurity: true,
    operation: `query CliConfig { cli_config { ${CLI_CONFIG_FIELDS} } }`,
    result: (data) => data.cli_config,
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/cli/config")) }),
    responses: { 200: { description: "The toggles", schema: withLinks(CliConfig) } },
    errors: [],
  }),
];
