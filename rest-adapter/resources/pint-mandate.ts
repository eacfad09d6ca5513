import { Type } from "@sinclair/typebox";
import { href, link } from "../route-kit/links.ts";
import type { RestResource, TypeOverlay } from "../route-kit/resource-overlay.ts";
import { defineRoute } from "../route-kit/route.ts";
import { Address, Links, PageOffset, withLinks } from "../route-kit/schemas.ts";
import type * as Generated from "./resources.generated.ts";

/** A mandate, also inside an exchange's answer (pint-exchange.ts). */
export const PINT_MANDATE: TypeOverlay = {
  fields: { id: { examples: ["pint_01jb4x8w5n6p7q8r9s0t1v2w3x"] }, wallet: { schema: Address }, signer: { schema: Address } },
};

/** A PINT mandate in REST, written inline by the identity host's PINT routes and by the platform host's routes below. */
export const resource = { type: "PintMandate", component: false, types: { PintMandate: PINT_MANDATE } } satisfies RestResource;

const PintPath = Type.Object({ pint_id: Type.String({ minLength: 1 }) });

function pintLinks(base: string, pintId: string) {
  const self = href(base, "/v0/user/me/pints/{pint_id}", { pint_id: pintId });
  return { self: link(self), revoke: link(self, { method: "DELETE" }), list: link(href(base, "/v0/user/me/pints")) };
}

/**
 * The user's PINT mandates on the platform host: list them and revoke one. The mandates live in
 * the identity subgraph; its resolvers authorise the user principal (the mandate's own user only).
 */
export const routes = ({ PINT_MANDATE_FIELDS, PintMandate }: typeof Generated) => [
  defineRoute({
    operationId: "listMyPints",
    method: "GET",
    path: "/v0/user/me/pints",
    tag: "User",
    summary: "The PINT mandates the user's wallets signed",
    description:
      "Every mandate a third party exchanged for a PINT JWT on the identity host (`POST {sis_url}/v0/idsvc/token/pint`), newest first, with its audience, scopes, expiry and status (`active`, `expired`, `revoked`).",
    security: ["PlatformJwt", "PlatformPat"],
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
      offset: PageOffset,
    }),
    operation: `query MyPints($limit: Int, $offset: Int) { pints: my_pints(limit: $limit, offset: $offset) { ${PINT_MANDATE_FIELDS} } }`,
    variables: ({ query }) => ({ limit: query.limit ?? null, offset: query.offset ?? null }),
    result: (data) => ({ items: data.pints }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/user/me/pints")) }),
    responses: { 200: { description: "The mandates", schema: Type.Object({ items: Type.Array(PintMandate), _links: Links }) } },
    errors: ["USR-404-001"],
  }),
  defineRoute({
    operationId: "getMyPint",
    method: "GET",
    path: "/v0/user/me/pints/{pint_id}",
    tag: "User",
    summary: "One PINT mandate of the user",
    security: ["PlatformJwt", "PlatformPat"],
    params: PintPath,
    operation: `query MyPint($id: ID!) { pint: my_pint(id: $id) { ${PINT_MANDATE_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.pint_id }),
    result: (data) => data.pint,
    links: (_body, { base_url, params }) => pintLinks(base_url, params.pint_id),
    responses: { 200: { description: "The mandate", schema: withLinks(PintMandate) } },
    errors: ["USR-404-001", "PINT-404-001"],
  }),
  defineRoute({
    operationId: "revokeMyPint",
    method: "DELETE",
    path: "/v0/user/me/pints/{pint_id}",
    tag: "User",
    summary: "Revoke a PINT mandate",
    description:
      "JWT, or a PAT with `write`. Allowed only for the user the mandate was granted by (users belong to one environment, so only in the mandate's environment); a user who holds the same wallet in another environment, or registers it later, gets 404. Immediate: the mandate's PINT JWT fails from the next request on (401 `PINT-401-006` on the identity host) and the mandate cannot be exchanged again (409 `PINT-409-002`). Revoking twice answers the same. 404 `PINT-404-001` for a mandate of someone else.",
    security: ["PlatformJwt", "PlatformPat"],
    params: PintPath,
    operation: `mutation RevokeMyPint($id: ID!) { pint: revoke_my_pint(id: $id) { ${PINT_MANDATE_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.pint_id }),
    result: (data) => data.pint,
    links: (_body, { base_url, params }) => pintLinks(base_url, params.pint_id),
    responses: { 200: { description: "The revoked mandate", schema: withLinks(PintMandate) } },
    errors: ["USR-403-001", "USR-404-001", "PINT-404-001"],
  }),
];
