import { Type } from "@sinclair/typebox";
import { EVENT_PAYLOADS, EVENT_TYPES } from "../../lib/contracts/events.ts";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { Links, literalUnion, PageOffset, withLinks } from "../route-kit/schemas.ts";
import { ORGANISATION_EVENT_FIELDS, OrganisationEvent } from "../resources/resources.generated.ts";

const EVENTS_PATH = "/v0/organisation/{org_id}/events";
const EVENT_PATH = "/v0/organisation/{org_id}/events/{event_id}";

const ENVELOPE =
  "Each event is the envelope webhook receivers are sent: `id` (`evt_…`, the `webhook-id`), `type` (`<resource>.<change>`), `api_version` (the `info.version` its `data` was rendered with), `created_at`, " +
  "`environment_id` (`<org-id>:<env-id>`, the environment of the user it concerns), `resource` (`type`, `id`) and `data` (the resource as this API renders it: ids, statuses, epoch-millisecond instants, decimal strings for money, never a secret). " +
  // the catalogue's types with a payload schema are those emitted
  `Emitted today: ${Object.keys(EVENT_PAYLOADS).map((type) => `\`${type}\``).join(", ")}; events of the default environment belong to no organisation and are not listed. ` +
  "Events are written with the change they report and reach this list within seconds (the identity service relays them).";

export const eventRoutes = [
  defineRoute({
    operationId: "listOrganisationEvents",
    method: "GET",
    path: EVENTS_PATH,
    tag: "Events",
    summary: "The organisation's outgoing events",
    description:
      "The organisation wrapper's `_links.events` (spec 2.5): the outgoing events of the organisation's environments, newest first. " +
      ENVELOPE +
      " `type` and `env_id` narrow the list; `limit` 1 to 200 (default 50) and `offset` from 0 page through it, as on the host's other lists. " +
      "Members only: anyone else gets 404 `IDS-404-001`, like a missing organisation.",
    security: ["DashboardSession"],
    params: Type.Object({ org_id: Type.String({ minLength: 1 }) }),
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
      offset: PageOffset,
      type: Type.Optional(literalUnion(EVENT_TYPES, { description: "only events of this type" })),
      env_id: Type.Optional(Type.String({ minLength: 1, description: "only events of this environment of the organisation" })),
    }),
    operation: `query OrganisationEvents($org_id: ID!, $limit: Int, $offset: Int, $type: String, $env_id: ID) { events: organisation_events(org_id: $org_id, limit: $limit, offset: $offset, type: $type, env_id: $env_id) { ${ORGANISATION_EVENT_FIELDS} } }`,
    variables: ({ params, query }) => ({ org_id: params.org_id, limit: query.limit ?? null, offset: query.offset ?? null, type: query.type ?? null, env_id: query.env_id ?? null }),
    result: (data) => ({ items: data.events }),
    links: (_body, { base_url, params }) => ({ self: link(href(base_url, EVENTS_PATH, { org_id: params.org_id })) }),
    responses: { 200: { description: "The events, newest first", schema: Type.Object({ items: Type.Array(OrganisationEvent), _links: Links }) } },
    errors: ["IDS-404-001"],
  }),
  defineRoute({
    operationId: "getOrganisationEvent",
    method: "GET",
    path: EVENT_PATH,
    tag: "Events",
    summary: "One outgoing event",
    description: "One of the organisation's outgoing events by its id. " + ENVELOPE + " Members only; an unknown event, or another organisation's, is 404 `IDS-404-001`.",
    security: ["DashboardSession"],
    params: Type.Object({ org_id: Type.String({ minLength: 1 }), event_id: Type.String({ minLength: 1 }) }),
    operation: `query OrganisationEvent($org_id: ID!, $event_id: ID!) { event: organisation_event(org_id: $org_id, event_id: $event_id) { ${ORGANISATION_EVENT_FIELDS} } }`,
    variables: ({ params }) => ({ org_id: params.org_id, event_id: params.event_id }),
    result: (data) => data.event,
    links: (_body, { base_url, params }) => ({
      self: link(href(base_url, EVENT_PATH, { org_id: params.org_id, event_id: params.event_id })),
      events: link(href(base_url, EVENTS_PATH, { org_id: params.org_id })),
    }),
    responses: { 200: { description: "The event", schema: withLinks(OrganisationEvent) } },
    errors: ["IDS-404-001"],
  }),
];
