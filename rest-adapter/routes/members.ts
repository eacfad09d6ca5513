import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { Links, withLinks } from "../route-kit/schemas.ts";
import { AddMemberInput, Member, MEMBER_FIELDS, UpdateMemberRoleInput } from "../resources/resources.generated.ts";

const OrgId = Type.Object({ org_id: Type.String({ minLength: 1 }) });
const MemberPath = Type.Object({ org_id: Type.String({ minLength: 1 }), member_id: Type.String({ minLength: 1 }) });
const membersHref = (base: string, orgId: string) => href(base, "/v0/organisation/{org_id}/members", { org_id: orgId });

export const memberRoutes = [
  defineRoute({
    operationId: "listMembers",
    method: "GET",
    path: "/v0/organisation/{org_id}/members",
    tag: "Members",
    summary: "List the organisation's members",
    security: ["DashboardSession"],
    params: OrgId,
    operation: `query Members($org_id: ID!) { members(org_id: $org_id) { ${MEMBER_FIELDS} } }`,
    variables: ({ params }) => ({ org_id: params.org_id }),
    result: (data) => ({ items: data.members }),
    links: (_body, { base_url, params }) => ({ self: link(membersHref(base_url, params.org_id)), add: link(membersHref(base_url, params.org_id), { method: "POST" }) }),
    responses: { 200: { description: "The members", schema: Type.Object({ items: Type.Array(Member), _links: Links }) } },
    errors: ["IDS-404-001"],
  }),
  defineRoute({
    operationId: "addMember",
    method: "POST",
    path: "/v0/organisation/{org_id}/members",
    tag: "Members",
    summary: "Add a dashboard user to the organisation",
    description:
      "By the issuer (`issuer`) and subject (`sub`) of their dashboard session token: membership is keyed on both, so the same `sub` from another `DASHBOARD_AUTH` issuer is someone else. `issuer` defaults to the issuer of the caller's own session token and must be a `DASHBOARD_AUTH` issuer (else 422). Owners and admins only (403 `IDS-403-003`); only owners add an owner (403 `IDS-403-004`). 409 `IDS-409-001` when already a member.",
    security: ["DashboardSession"],
    params: OrgId,
    body: AddMemberInput,
    operation: `mutation AddMember($org_id: ID!, $input: AddMemberInput!) { member: add_member(org_id: $org_id, input: $input) { ${MEMBER_FIELDS} } }`,
    variables: ({ params, body }) => ({ org_id: params.org_id, input: body }),
    result: (data) => data.member,
    status: 201,
    links: (body, { base_url, params }) => ({
      list: link(membersHref(base_url, params.org_id)),
      remove: link(href(base_url, "/v0/organisation/{org_id}/members/{member_id}", { org_id: params.org_id, member_id: body.id }), { method: "DELETE" }),
    }),
    responses: { 201: { description: "The member", schema: withLinks(Member) } },
    errors: ["IDS-403-003", "IDS-403-004", "IDS-404-001", "IDS-409-001", "IDS-409-002"],
  }),
  defineRoute({
    operationId: "updateMember",
    method: "PATCH",
    path: "/v0/organisation/{org_id}/members/{member_id}",
    tag: "Members",
    summary: "Change a member's role",
    description:
      "Owners and admins (403 `IDS-403-003`). Only owners grant the owner role or take it away (403 `IDS-403-004`); the last owner cannot be demoted (409 `IDS-409-002`).",
    security: ["DashboardSession"],
    params: MemberPath,
    body: UpdateMemberRoleInput,
    operation: `mutation UpdateMember($org_id: ID!, $member_id: ID!, $input: UpdateMemberRoleInput!) { member: update_member_role(org_id: $org_id, member_id: $member_id, input: $input) { ${MEMBER_FIELDS} } }`,
    variables: ({ params, body }) => ({ org_id: params.org_id, member_id: params.member_id, input: body }),
    result: (data) => data.member,
    links: (body, { base_url, params }) => ({
      list: link(membersHref(base_url, params.org_id)),
      remove: link(href(base_url, "/v0/organisation/{org_id}/members/{member_id}", { org_id: params.org_id, member_id: body.id }), { method: "DELETE" }),
    }),
    responses: { 200: { description: "The member", schema: withLinks(Member) } },
    errors: ["IDS-403-003", "IDS-403-004", "IDS-404-001", "IDS-409-002"],
  }),
  defineRoute({
    operationId: "removeMember",
    method: "DELETE",
    path: "/v0/organisation/{org_id}/members/{member_id}",
    tag: "Members",
    summary: "Remove a member",
    description: "Owners and admins (403 `IDS-403-003`); only owners remove an owner (403 `IDS-403-004`); the last owner cannot be removed (409 `IDS-409-002`).",
    security: ["DashboardSession"],
    params: MemberPath,
    operation: `mutation RemoveMember($org_id: ID!, $member_id: ID!) { member: remove_member(org_id: $org_id, member_id: $member_id) { id } }`,
    variables: ({ params }) => ({ org_id: params.org_id, member_id: params.member_id }),
    result: () => undefined,
    status: 204,
    responses: { 204: { description: "Removed" } },
    errors: ["IDS-403-003", "IDS-403-004", "IDS-404-001", "IDS-409-002"],
  }),
];
