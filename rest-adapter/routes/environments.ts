import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { Links, withLinks } from "../route-kit/schemas.ts";
import { CreateEnvironmentInput, Environment, ENVIRONMENT_FIELDS, UpdateEnvironmentInput } from "../resources/resources.generated.ts";

const OrgId = Type.Object({ org_id: Type.String({ minLength: 1 }) });
const EnvPath = Type.Object({ org_id: Type.String({ minLength: 1 }), env_id: Type.String({ minLength: 1 }) });

const AUTH_DESCRIPTION =
  " `auth_providers` (shaped like AUTH_PROVIDERS, same rules) are the issuers a JWT sent with `x-platform-orgid: <org_id>:<env_id>` may come from; users register and are found per environment. The gateway caches an environment's providers for up to 30 s (`ENVIRONMENT_CACHE_TTL_MS`), so a change takes effect within that time.";

function environmentLinks(base: string, orgId: string, envId: string) {
  const self = href(base, "/v0/organisation/{org_id}/environments/{env_id}", { org_id: orgId, env_id: envId });
  return {
    self: link(self),
    update: link(self, { method: "PATCH" }),
    delete: link(self, { method: "DELETE" }),
    organisation: link(href(base, "/v0/organisation/{org_id}", { org_id: orgId })),
    keys: link(href(base, "/v0/organisation/{org_id}/keys", { org_id: orgId })),
  };
}

export const environmentRoutes = [
  defineRoute({
    operationId: "listEnvironments",
    method: "GET",
    path: "/v0/organisation/{org_id}/environments",
    tag: "Environments",
    summary: "List the organisation's environments",
    security: ["DashboardSession"],
    params: OrgId,
    operation: `query Environments($org_id: ID!) { environments(org_id: $org_id) { ${ENVIRONMENT_FIELDS} } }`,
    variables: ({ params }) => ({ org_id: params.org_id }),
    result: (data) => ({ items: data.environments }),
    links: (_body, { base_url, params }) => ({ self: link(href(base_url, "/v0/organisation/{org_id}/environments", { org_id: params.org_id })) }),
    responses: { 200: { description: "The environments", schema: Type.Object({ items: Type.Array(Environment), _links: Links }) } },
    errors: ["IDS-404-001"],
  }),
  defineRoute({
    operationId: "createEnvironment",
    method: "POST",
    path: "/v0/organisation/{org_id}/environments",
    tag: "Environments",
    summary: "Create an environment",
    description:
      "Owners and admins only. `kind: live` environments mint `idsvc_sk_live_`/`idsvc_pk_live_` keys, `test` ones (the default) `…_test_` keys." +
      AUTH_DESCRIPTION +
      " Without `auth_providers` no JWT is accepted until they are set.",
    security: ["DashboardSession"],
    params: OrgId,
    body: CreateEnvironmentInput,
    operation: `mutation CreateEnvironment($org_id: ID!, $input: CreateEnvironmentInput!) { environment: create_environment(org_id: $org_id, input: $input) { ${ENVIRONMENT_FIELDS} } }`,
    variables: ({ params, body }) => ({ org_id: params.org_id, input: body }),
    result: (data) => data.environment,
    status: 201,
    links: (body, { base_url, params }) => environmentLinks(base_url, params.org_id, body.id),
    responses: { 201: { description: "The environment", schema: withLinks(Environment) } },
    errors: ["IDS-403-003", "IDS-404-001"],
  }),
  defineRoute({
    operationId: "getEnvironment",
    method: "GET",
    path: "/v0/organisation/{org_id}/environments/{env_id}",
    tag: "Environments",
    summary: "Read an environment",
    security: ["DashboardSession"],
    params: EnvPath,
    operation: `query Environment($org_id: ID!, $env_id: ID!) { environment(org_id: $org_id, env_id: $env_id) { ${ENVIRONMENT_FIELDS} } }`,
    variables: ({ params }) => ({ org_id: params.org_id, env_id: params.env_id }),
    result: (data) => data.environment,
    links: (_body, { base_url, params }) => environmentLinks(base_url, params.org_id, params.env_id),
    responses: { 200: { description: "The environment", schema: withLinks(Environment) } },
    errors: ["IDS-404-001"],
  }),
  defineRoute({
    operationId: "updateEnvironment",
    method: "PATCH",
    path: "/v0/organisation/{org_id}/environments/{env_id}",
    tag: "Environments",
    summary: "Rename an environment or set its identity providers",
    description: "Owners and admins only (403 `IDS-403-003`). Fields left out stay; `auth_providers` replaces the whole list." + AUTH_DESCRIPTION,
    security: ["DashboardSession"],
    params: EnvPath,
    body: UpdateEnvironmentInput,
    operation: `mutation UpdateEnvironment($org_id: ID!, $env_id: ID!, $input: UpdateEnvironmentInput!) { environment: update_environment(org_id: $org_id, env_id: $env_id, input: $input) { ${ENVIRONMENT_FIELDS} } }`,
    variables: ({ params, body }) => ({ org_id: params.org_id, env_id: params.env_id, input: body }),
    result: (data) => data.environment,
    links: (_body, { base_url, params }) => environmentLinks(base_url, params.org_id, params.env_id),
    responses: { 200: { description: "The environment", schema: withLinks(Environment) } },
    errors: ["IDS-403-003", "IDS-404-001"],
  }),
  defineRoute({
    operationId: "deleteEnvironment",
    method: "DELETE",
    path: "/v0/organisation/{org_id}/environments/{env_id}",
    tag: "Environments",
    summary: "Delete an environment",
    description:
      "Owners and admins only. Answers **204**. The environment is soft-deleted and every API key of it is revoked in the same transaction: none authenticates from the next request on. 404 `IDS-404-001` for an unknown or already deleted environment.",
    security: ["DashboardSession"],
    params: EnvPath,
    operation: `mutation DeleteEnvironment($org_id: ID!, $env_id: ID!) { deleted: delete_environment(org_id: $org_id, env_id: $env_id) }`,
    variables: ({ params }) => ({ org_id: params.org_id, env_id: params.env_id }),
    result: () => undefined,
    status: 204,
    responses: { 204: { description: "Deleted; its keys are revoked" } },
    errors: ["IDS-403-003", "IDS-404-001"],
  }),
];
