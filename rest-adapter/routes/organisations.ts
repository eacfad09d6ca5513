import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route.ts";
import { href, link } from "../links.ts";
import { EpochMs, Links, literalUnion } from "../schemas.ts";
import { ENVIRONMENT_KINDS } from "../../lib/auth/api-key.ts";
import { MEMBER_ROLES, MEMBER_STATUSES, ORGANISATION_STATUSES } from "../../lib/vocabulary/organisations.ts";

export const MEMBER_FIELDS = "id name email status role issuer sub created_at";
export const ENVIRONMENT_FIELDS = "id name label kind created_at updated_at auth { provider providers provider_configs is_active created_at updated_at credentials { environment_id api_key } } features { name enabled config created_at updated_at }";
const ORGANISATION_FIELDS = `id name status created_at contact_email dashboard_org_id members { ${MEMBER_FIELDS} } environments { ${ENVIRONMENT_FIELDS} }`;

const OrgId = Type.Object({ org_id: Type.String({ minLength: 1 }) });

export const Member = Type.Object({
  id: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  status: literalUnion(MEMBER_STATUSES),
  role: literalUnion(MEMBER_ROLES),
  issuer: Type.Union([Type.String(), Type.Null()], { description: "the dashboard session token's issuer (DASHBOARD_AUTH); null: recorded before issuers were and matching no token until added again" }),
  sub: Type.String({ description: "the dashboard session token's subject" }),
  created_at: EpochMs,
});

export const Environment = Type.Object({
  id: Type.String(),
  name: Type.String(),
  label: Type.Union([Type.String(), Type.Null()]),
  kind: literalUnion(ENVIRONMENT_KINDS, { description: "shown in the prefix of the environment's keys" }),
  created_at: EpochMs,
  updated_at: EpochMs,
  auth: Type.Object({
    provider: Type.Union([Type.String(), Type.Null()]),
    providers: Type.Array(Type.String()),
    provider_configs: Type.Array(Type.Record(Type.String(), Type.Unknown()), { description: "the providers as set with `auth_providers`" }),
    is_active: Type.Boolean(),
    created_at: EpochMs,
    updated_at: EpochMs,
    credentials: Type.Object({ environment_id: Type.String(), api_key: Type.Union([Type.String(), Type.Null()]) }),
  }),
  features: Type.Array(Type.Object({ name: Type.String(), enabled: Type.Boolean(), config: Type.Record(Type.String(), Type.Unknown()), created_at: EpochMs, updated_at: EpochMs })),
});

const Organisation = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: literalUnion(ORGANISATION_STATUSES),
  created_at: EpochMs,
  contact_email: Type.Union([Type.String(), Type.Null()]),
  dashboard_org_id: Type.Union([Type.String(), Type.Null()]),
  members: Type.Array(Member),
  environments: Type.Array(Environment),
});

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
