import { Type } from "@sinclair/typebox";
import { EVENT_PAYLOADS, EVENT_TYPES } from "../../lib/contracts/events.ts";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { Instant, Links, literalUnion, PageOffset, withLinks } from "../route-kit/schemas.ts";
import {
  FAILED_EVENTS_REDELIVERY_FIELDS,
  FailedEventsRedelivery,
  ORGANISATION_EVENT_DETAIL_FIELDS,
  ORGANISATION_EVENT_FIELDS,
  OrganisationEvent,
  OrganisationEventDetail,
  RedeliverEventInput,
  RedeliverFailedEventsInput,
} from "../resources/resources.generated.ts";

const EVENTS_PATH = "/v0/organisation/{org_id}/events";
const EVENT_PATH = "/v0/organisation/{org_id}/events/{event_id}";
const REDELIVER_FAILED_PATH = "/v0/organisation/{org_id}/events/redeliver";

const OrgPath = Type.Object({ org_id: Type.String({ minLength: 1 }) });
const EventPath = Type.Object({ org_id: Type.String({ minLength: 1 }), event_id: Type.String({ minLength: 1 }) });

const UNDELIVERED =
  "a delivery an attempt has not delivered: `failed` (given up after three days, its endpoint answered 410, or it was deleted), or `pending` with an attempt made and another scheduled";
const DELIVERIES =
  "`deliveries` lists one per endpoint the event was owed to, oldest first: `id` (`whd_…`), `endpoint_id`, `status` (`pending`: on the retry schedule; `delivered`: a 2xx answered; `failed`: given up), `attempt_count` (every attempt, every round), `next_attempt_at` (null unless pending), `delivered_at`, " +
  "and `attempts`, newest first (the latest 100): `attempted_at`, `status_code` (null when no answer came), `latency_ms`, `response_excerpt` (the answer's first KiB) and `error` (a timeout, a refused address, a network error).";
const REDELIVERY =
  "A delivery is one per event and endpoint: redelivering starts a new round on it (`pending`, due now, the retry schedule and its three days starting again) and keeps the earlier rounds' attempts; a delivery being attempted at that moment is left to that attempt. The same `webhook-id` (the event id) is sent, so receivers that de-duplicate see it once.";
const WRITE_ACCESS = "Owners and admins; a member gets 403 `IDS-403-003`; anyone else, and an event of another organisation: 404 `IDS-404-001`.";

function eventLinks(base: string, params: { org_id: string; event_id: string }) {
  const self = href(base, EVENT_PATH, params);
  return { self: link(self), redeliver: link(`${self}/redeliver`, { method: "POST" }), events: link(href(base, EVENTS_PATH, { org_id: params.org_id })) };
}

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
      " The identity service adds `webhook_endpoint.disabled` when it disables an endpoint (its receiver answered 410, or every attempt failed for five days): the organisation members' notice, sent to the environment's other endpoints subscribed to it." +
      " Filters combine with AND: `type`, `env_id`, `resource_id` (the event's `resource.id`), `created_after` and `created_before` (epoch milliseconds or ISO 8601, both exclusive), and `delivery_success`: " +
      `\`false\` lists the events with at least one ${UNDELIVERED}, what a receiver that was down missed (redeliver them with POST …/events/redeliver); \`true\` the events with deliveries, every one delivered. ` +
      "Events owed to no endpoint, or whose deliveries are yet to be attempted, match neither. `limit` 1 to 200 (default 50) and `offset` from 0 page through it, as on the host's other lists. " +
      "Members only: anyone else gets 404 `IDS-404-001`, like a missing organisation.",
    security: ["DashboardSession"],
    params: OrgPath,
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
      offset: PageOffset,
      type: Type.Optional(literalUnion(EVENT_TYPES, { description: "only events of this type" })),
      env_id: Type.Optional(Type.String({ minLength: 1, description: "only events of this environment of the organisation" })),
      resource_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "only events about this resource (`resource.id`)" })),
      created_after: Type.Optional({ ...Instant, description: `only events created after this instant (exclusive); ${Instant.description}` }),
      created_before: Type.Optional({ ...Instant, description: `only events created before this instant (exclusive); ${Instant.description}` }),
      delivery_success: Type.Optional(Type.Boolean({ description: `false: events with at least one ${UNDELIVERED}; true: events with deliveries, all delivered` })),
    }),
    operation: `query OrganisationEvents($org_id: ID!, $limit: Int, $offset: Int, $type: String, $env_id: ID, $resource_id: ID, $created_after: Timestamp, $created_before: Timestamp, $delivery_success: Boolean) { events: organisation_events(org_id: $org_id, limit: $limit, offset: $offset, type: $type, env_id: $env_id, resource_id: $resource_id, created_after: $created_after, created_before: $created_before, delivery_success: $delivery_success) { ${ORGANISATION_EVENT_FIELDS} } }`,
    variables: ({ params, query }) => ({
      org_id: params.org_id,
      limit: query.limit ?? null,
      offset: query.offset ?? null,
      type: query.type ?? null,
      env_id: query.env_id ?? null,
      resource_id: query.resource_id ?? null,
      created_after: query.created_after ?? null,
      created_before: query.created_before ?? null,
      delivery_success: query.delivery_success ?? null,
    }),
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
    summary: "One outgoing event, with its deliveries and their attempts",
    description: "One of the organisation's outgoing events by its id. " + ENVELOPE + " " + DELIVERIES + " Members only; an unknown event, or another organisation's, is 404 `IDS-404-001`.",
    security: ["DashboardSession"],
    params: EventPath,
    operation: `query OrganisationEvent($org_id: ID!, $event_id: ID!) { event: organisation_event(org_id: $org_id, event_id: $event_id) { ${ORGANISATION_EVENT_DETAIL_FIELDS} } }`,
    variables: ({ params }) => ({ org_id: params.org_id, event_id: params.event_id }),
    result: (data) => data.event,
    links: (_body, { base_url, params }) => eventLinks(base_url, params),
    responses: { 200: { description: "The event with its deliveries", schema: withLinks(OrganisationEventDetail) } },
    errors: ["IDS-404-001"],
  }),
  defineRoute({
    operationId: "redeliverOrganisationEvent",
    method: "POST",
    path: `${EVENT_PATH}/redeliver`,
    tag: "Events",
    summary: "Deliver an event again",
    description:
      "Answers **202** with the event and its deliveries: it is sent again to every enabled endpoint of its environment subscribed to its type (endpoints created since included), or only to `endpoint_id`, within seconds. " +
      REDELIVERY +
      " No enabled endpoint subscribed to its type, or an `endpoint_id` disabled or not subscribed: 409 `IDS-409-004`; an `endpoint_id` that is not a live endpoint of the event's environment: 404 `IDS-404-001`. Send `{}` for every endpoint. " +
      WRITE_ACCESS,
    security: ["DashboardSession"],
    params: EventPath,
    body: RedeliverEventInput,
    operation: `mutation RedeliverOrganisationEvent($org_id: ID!, $event_id: ID!, $input: RedeliverEventInput!) { event: redeliver_organisation_event(org_id: $org_id, event_id: $event_id, input: $input) { ${ORGANISATION_EVENT_DETAIL_FIELDS} } }`,
    variables: ({ params, body }) => ({ org_id: params.org_id, event_id: params.event_id, input: body }),
    result: (data) => data.event,
    status: 202,
    links: (_body, { base_url, params }) => eventLinks(base_url, params),
    responses: { 202: { description: "The event with its deliveries, the redelivered ones pending", schema: withLinks(OrganisationEventDetail) } },
    errors: ["IDS-403-003", "IDS-404-001", "IDS-409-004"],
  }),
  defineRoute({
    operationId: "redeliverFailedOrganisationEvents",
    method: "POST",
    path: REDELIVER_FAILED_PATH,
    tag: "Events",
    summary: "Deliver again everything undelivered since an instant",
    description:
      `Answers **202** with \`queued\`: how many deliveries were queued again. Every ${UNDELIVERED}, of the organisation's events created at or after \`since\` (epoch milliseconds or ISO 8601), to an endpoint that is enabled now (or only to \`endpoint_id\`), is sent again within seconds: ` +
      "what `GET …/events?delivery_success=false&created_after=…` lists, for the receiver that was down. Deliveries of a disabled endpoint stay as they are: enable it first. " +
      REDELIVERY +
      " An `endpoint_id` that is not a live endpoint of the organisation: 404 `IDS-404-001`. " +
      WRITE_ACCESS,
    security: ["DashboardSession"],
    params: OrgPath,
    body: Type.Object({ ...RedeliverFailedEventsInput.properties, since: { ...Instant, description: `events created at or after this instant; ${Instant.description}` } }),
    operation: `mutation RedeliverFailedOrganisationEvents($org_id: ID!, $input: RedeliverFailedEventsInput!) { redelivery: redeliver_failed_organisation_events(org_id: $org_id, input: $input) { ${FAILED_EVENTS_REDELIVERY_FIELDS} } }`,
    variables: ({ params, body }) => ({ org_id: params.org_id, input: body }),
    result: (data) => data.redelivery,
    status: 202,
    links: (_body, { base_url, params }) => ({
      self: link(href(base_url, REDELIVER_FAILED_PATH, params), { method: "POST" }),
      undelivered: link(`${href(base_url, EVENTS_PATH, params)}?delivery_success=false`),
    }),
    responses: { 202: { description: "How many deliveries were queued again", schema: withLinks(FailedEventsRedelivery) } },
    errors: ["IDS-403-003", "IDS-404-001"],
  }),
];
