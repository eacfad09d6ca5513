import { Type, type TSchema } from "@sinclair/typebox";
import { EVENT_PAYLOADS, EVENT_TYPES, type EventType } from "../../lib/contracts/events.ts";
import { DEFAULT_TOLERANCE_SECONDS } from "../../lib/webhooks/standard-webhooks.ts";
import type { DocumentedWebhook } from "../route-kit/openapi.ts";
import { OrganisationEvent } from "../resources/resources.generated.ts";

// The outgoing events (issue 29) as the identity host's OpenAPI 3.1 document shows them: one
// `webhooks` entry per catalogue type, the POST a receiver gets, built from lib/contracts/events.ts
// alone, so a type added there is documented without a change here.

/** How a receiver is called and what its answer means (subgraphs/identity/webhook-delivery/). */
export const DELIVERY_RULES =
  "POSTed as JSON to every enabled webhook endpoint of the event's environment subscribed to its type (or `*`), signed as Standard Webhooks (https://www.standardwebhooks.com): " +
  "`webhook-signature` is `v1,<base64 HMAC-SHA256 of \"{webhook-id}.{webhook-timestamp}.{body}\">` under the endpoint secret's base64-decoded bytes, one per signing secret (two, space-separated, during a rotation's overlap). " +
  `Verify the raw body before parsing it and refuse a \`webhook-timestamp\` more than ${DEFAULT_TOLERANCE_SECONDS / 60} minutes from your clock (the libraries' default). ` +
  "At least once: `webhook-id` is the event id, the same on every attempt, so de-duplicate by it. A 2xx answer within 10 s delivers; 410 disables the endpoint (`disabled_reason: \"gone\"`); anything else, a redirect or a timeout is retried " +
  "after 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h (each ±10 %) until three days after the first attempt, and not before the `Retry-After` (seconds or an HTTP date, at most a day) of a 429, 502, 503 or 504. " +
  "No order is kept across events, not even for one resource: order by `created_at`, or read the resource. The events API (`GET /v0/organisation/{org_id}/events`) lists the same envelopes.";

const HEADERS: DocumentedWebhook["headers"] = [
  { name: "webhook-id", required: true, description: "The event id (`evt_…`), the same on every attempt: de-duplicate by it.", schema: { type: "string", pattern: "^evt_" } },
  { name: "webhook-timestamp", required: true, description: "When this attempt was signed, in Unix seconds (each retry is signed anew).", schema: { type: "string", pattern: "^[0-9]+$" } },
  {
    name: "webhook-signature",
    required: true,
    description: "Space-separated `v1,<base64>` signatures, one per secret the endpoint signs with: two during a rotation's overlap, either of which verifies.",
    schema: { type: "string", pattern: "^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)*$" },
  },
  { name: "user-agent", required: true, description: "Always `platform-webhooks/1`.", schema: { type: "string", const: "platform-webhooks/1" } },
];

const RESPONSES: DocumentedWebhook["responses"] = {
  "2XX": "Received: the delivery is done (the answer's body is ignored; its first KiB is kept with the attempt).",
  "410": "Gone: the endpoint is disabled (`disabled_reason: \"gone\"`) and nothing more is sent to it until it is enabled again.",
  default: "Not received: retried per the schedule; after a 429, 502, 503 or 504 not before its `Retry-After`.",
};

const pascal = (type: string) => type.split(/[._]/).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join("");

/** The component name of a type's payload schema: its `title`, else `<Type>Event`. */
function payloadName(type: EventType, payload: TSchema): string {
  return typeof payload.title === "string" ? payload.title : `${pascal(type)}Event`;
}

const payloads = EVENT_PAYLOADS as Partial<Record<EventType, TSchema>>;

/** Every catalogue type's payload schema, named for `components.schemas` (types without one yet have none). */
export function eventPayloadComponents(): TSchema[] {
  return EVENT_TYPES.flatMap((type) => {
    const payload = payloads[type];
    return payload ? [{ ...payload, $id: payloadName(type, payload) }] : [];
  });
}

/** The envelope a receiver gets for `type`: the events API's, with `type` fixed and `data` the type's payload schema. */
function envelopeOf(type: EventType): TSchema {
  const payload = payloads[type];
  const { properties } = OrganisationEvent;
  return Type.Object(
    {
      ...properties,
      type: Type.Literal(type),
      created_at: Type.Integer({ description: "when the change was committed, epoch milliseconds (deliveries never use ISO 8601)" }),
      data: payload ? Type.Ref(payloadName(type, payload)) : Type.Object({}, { additionalProperties: true, description: "the resource the event is about; this type's payload schema is not published yet" }),
    },
    { description: `The \`${type}\` event, as the events API lists it.` },
  );
}

/** One `webhooks` entry per catalogue type: the POST its receivers get. */
export function outgoingEventWebhooks(): DocumentedWebhook[] {
  return EVENT_TYPES.map((type) => {
    const payload = payloads[type];
    return {
      name: type,
      operationId: `${pascal(type).charAt(0).toLowerCase()}${pascal(type).slice(1)}Event`,
      tag: "Events",
      summary: `The \`${type}\` event`,
      description: `${payload?.description ? `${payload.description} ` : ""}${DELIVERY_RULES}`,
      headers: HEADERS,
      body: envelopeOf(type),
      responses: RESPONSES,
    };
  });
}
