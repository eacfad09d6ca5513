import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { Organisation, ORGANISATION_FIELDS } from "../resources/resources.generated.ts";
import { Links } from "../route-kit/schemas.ts";

const OrgId = Type.Object({ org_id: Type.String({ minLength: 1 }) });

/** The organisation response wrapper of spec 2.5. */
const OrganisationResponse = Type.Object({ organisation: Organisation, _links: Links });

export function organisationLinks(base: string, orgId: string) {
  const org = (path: string) => link(href(base, `/v0/organisation/{org_id}${path}`, { org_id: orgId }));
  return { self: org(""), members: org("/members"), keys: org("/keys"), environments: org("/environments"), events: org("/events") };
}

export const organisationRoutes = [
  defineRoute({
    operationId: "createOrganisation",
    method: "POST",
    path: "/v0/organisations",
    tag: "Organisations",
    summary: "Create an organisation",
    description: "Dashboard session token as Bearer. The caller becomes the organisation's owner; create environments and keys next.",
    security: ["DashboardSession"],
    body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), contact_email: Type.Optional(Type.Union([Type.String({ format: "email" }), Type.Null()])) }),
    operation: `mutation CreateOrganisation($input: CreateOrganisationInput!) { organisation: create_organisation(input: $input) { ${ORGANISATION_FIELDS} } }`,
    variables: ({ body }) => ({ input: body }),
    result: (data) => ({ organisation: data.organisation }),
    status: 201,
    links: (body, { base_url }) => organisationLinks(base_url, body.organisation.id),
    responses: { 201: { description: "The organisation", schema: OrganisationResponse } },
    errors: [],
  }),
  defineRoute({
    operationId: "getOrganisation",
    method: "GET",
    path: "/v0/organisation/{org_id}",
    tag: "Organisations",
    summary: "Read the organisation",
    description: "Members only: any other caller gets 404, so organisation ids cannot be probed.",
    security: ["DashboardSession"],
    params: OrgId,
    operation: `query Organisation($id: ID!) { organisation(id: $id) { ${ORGANISATION_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.org_id }),
    result: (data) => ({ organisation: data.organisation }),
    links: (_body, { base_url, params }) => organisationLinks(base_url, params.org_id),
    responses: { 200: { description: "The organisation", schema: OrganisationResponse } },
    errors: ["IDS-404-001"],
  }),
  defineRoute({
    operationId: "updateOrganisation",
    method: "PATCH",
    path: "/v0/organisation/{org_id}",
    tag: "Organisations",
    summary: "Update the organisation's name and contact email",
    description: "Owners and admins (403 `IDS-403-003` otherwise). `contact_email` must be an email address (422).",
    security: ["DashboardSession"],
    params: OrgId,
    body: Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), contact_email: Type.Optional(Type.Union([Type.String({ format: "email" }), Type.Null()])) }),
    operation: `mutation UpdateOrganisation($id: ID!, $input: UpdateOrganisationInput!) { organisation: update_organisation(id: $id, input: $input) { ${ORGANISATION_FIELDS} } }`,
    variables: ({ params, body }) => ({ id: params.org_id, input: body }),
    result: (data) => ({ organisation: data.organisation }),
    links: (_body, { base_url, params }) => organisationLinks(base_url, params.org_id),
    responses: { 200: { description: "The organisation", schema: OrganisationResponse } },
    errors: ["IDS-403-003", "IDS-404-001"],
  }),
];
