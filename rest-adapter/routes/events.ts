import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { Links, PageOffset } from "../route-kit/schemas.ts";
import { ORGANISATION_EVENT_FIELDS, OrganisationEvent } from "../resources/resources.generated.ts";

export const eventRoutes = [
  defineRoute({
    operationId: "listOrganisationEvents",
    method: "GET",
    path: "/v0/organisation/{org_id}/events",
    tag: "Events",
    summary: "The organisation's outgoing events",
    description:
      // the shape events will have once emitted (Stripe-like), documented now so clients can be written against it
      "The organisation wrapper's `_links.events` (spec 2.5). **No events are emitted yet** (spec 6: developer-facing events are planned), so every page is `items: []`. " +
      "Once they are, each item is one event (`id`, `type`, `created_at`, `data`, `api_version`), newest first; `limit` 1 to 200 (default 50) and `offset` from 0 page through them, as on the host's other lists. " +
      "Members only: anyone else gets 404 `IDS-404-001`, like a missing organisation.",
    security: ["DashboardSession"],
    params: Type.Object({ org_id: Type.String({ minLength: 1 }) }),
    query: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })), offset: PageOffset }),
    operation: `query OrganisationEvents($org_id: ID!, $limit: Int, $offset: Int) { events: organisation_events(org_id: $org_id, limit: $limit, offset: $offset) { ${ORGANISATION_EVENT_FIELDS} } }`,
    variables: ({ params, query }) => ({ org_id: params.org_id, limit: query.limit ?? null, offset: query.offset ?? null }),
    result: (data) => ({ items: data.events }),
    links: (_body, { base_url, params }) => ({ self: link(href(base_url, "/v0/organisation/{org_id}/events", { org_id: params.org_id })) }),
    responses: { 200: { description: "The events (none yet)", schema: Type.Object({ items: Type.Array(OrganisationEvent), _links: Links }) } },
    errors: ["IDS-404-001"],
  }),
];
