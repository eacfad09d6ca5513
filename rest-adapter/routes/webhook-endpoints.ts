import { Type } from "@sinclair/typebox";
import { DEFAULT_SECRET_OVERLAP_SECONDS, EVENT_TYPES, MAX_SECRET_OVERLAP_SECONDS, MAX_WEBHOOK_ENDPOINTS } from "../../lib/contracts/events.ts";
import { defineRoute, SANDBOX_TAG } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { Links, literalUnion, withLinks } from "../route-kit/schemas.ts";
import {
  CreateWebhookEndpointInput,
  ORGANISATION_EVENT_FIELDS,
  OrganisationEvent,
  RotateWebhookSecretInput,
  UpdateWebhookEndpointInput,
  WEBHOOK_ENDPOINT_FIELDS,
  WebhookEndpoint,
} from "../resources/resources.generated.ts";

const TAG = "Webhook Endpoints";
const LIST_PATH = "/v0/organisation/{org_id}/environments/{env_id}/webhook-endpoints";
const ITEM_PATH = `${LIST_PATH}/{endpoint_id}`;

const EnvPath = Type.Object({ org_id: Type.String({ minLength: 1 }), env_id: Type.String({ minLength: 1 }) });
const EndpointPath = Type.Object({ org_id: Type.String({ minLength: 1 }), env_id: Type.String({ minLength: 1 }), endpoint_id: Type.String({ minLength: 1, description: "whe_<id>" }) });

const Secret = Type.String({
  pattern: "^whsec_[A-Za-z0-9+/]{43}=$",
  description: "`whsec_` and 32 random bytes in base64: the key of the `webhook-signature` header's HMAC-SHA256 (Standard Webhooks). Shown only in this answer; stored sealed",
});
const WithSecret = withLinks(Type.Composite([WebhookEndpoint, Type.Object({ secret: Secret })]));

const ACCESS = "Members read; owners and admins write (403 `IDS-403-003`); anyone else, an unknown or deleted environment, and an endpoint of another organisation or environment: 404 `IDS-404-001`.";
const SIGNING =
  "Each event is POSTed as JSON with the Standard Webhooks headers `webhook-id` (the event id, for de-duplication), `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256 of \"{webhook-id}.{webhook-timestamp}.{body}\">` under the secret's base64-decoded bytes).";

type PathParams = { org_id: string; env_id: string };

function endpointLinks(base: string, params: PathParams, endpointId: string) {
  const self = href(base, ITEM_PATH, { ...params, endpoint_id: endpointId });
  return {
    self: link(self),
    update: link(self, { method: "PATCH" }),
    delete: link(self, { method: "DELETE" }),
    rotate_secret: link(`${self}/rotate-secret`, { method: "POST" }),
    list: link(href(base, LIST_PATH, params)),
    environment: link(href(base, "/v0/organisation/{org_id}/environments/{env_id}", params)),
    organisation: link(href(base, "/v0/organisation/{org_id}", { org_id: params.org_id })),
  };
}

const pathOf = (params: PathParams & { endpoint_id: string }) => ({ org_id: params.org_id, env_id: params.env_id, endpoint_id: params.endpoint_id });

export const webhookEndpointRoutes = [
  defineRoute({
    operationId: "listWebhookEndpoints",
    method: "GET",
    path: LIST_PATH,
    tag: TAG,
    summary: "List the environment's webhook endpoints (never their secrets)",
    description: `Oldest first. ${ACCESS}`,
    security: ["DashboardSession"],
    params: EnvPath,
    operation: `query WebhookEndpoints($org_id: ID!, $env_id: ID!) { endpoints: webhook_endpoints(org_id: $org_id, env_id: $env_id) { ${WEBHOOK_ENDPOINT_FIELDS} } }`,
    variables: ({ params }) => ({ org_id: params.org_id, env_id: params.env_id }),
    result: (data) => ({ items: data.endpoints }),
    links: (_body, { base_url, params }) => ({
      self: link(href(base_url, LIST_PATH, params)),
      create: link(href(base_url, LIST_PATH, params), { method: "POST" }),
      environment: link(href(base_url, "/v0/organisation/{org_id}/environments/{env_id}", params)),
    }),
    responses: { 200: { description: "The endpoints", schema: Type.Object({ items: Type.Array(WebhookEndpoint), _links: Links }) } },
    errors: ["IDS-404-001"],
  }),
  defineRoute({
    operationId: "createWebhookEndpoint",
    method: "POST",
    path: LIST_PATH,
    tag: TAG,
    summary: "Create a webhook endpoint",
    description:
      `The environment's events of the listed types are delivered to \`url\`. ${SIGNING} The answer carries the signing \`secret\` this once; read and list never show it. ` +
      `An environment has at most ${MAX_WEBHOOK_ENDPOINTS} endpoints: 409 \`IDS-409-003\` beyond. An unknown event type, a repeated \`*\` or one beside other types, and a URL that is not https to a public host answer 422 at the field. \`enabled: false\` creates it disabled (\`disabled_reason: "user"\`). ${ACCESS}`,
    security: ["DashboardSession"],
    params: EnvPath,
    body: CreateWebhookEndpointInput,
    operation: `mutation CreateWebhookEndpoint($org_id: ID!, $env_id: ID!, $input: CreateWebhookEndpointInput!) { endpoint: create_webhook_endpoint(org_id: $org_id, env_id: $env_id, input: $input) { ${WEBHOOK_ENDPOINT_FIELDS} secret } }`,
    variables: ({ params, body }) => ({ org_id: params.org_id, env_id: params.env_id, input: body }),
    result: (data) => data.endpoint,
    status: 201,
    links: (body, { base_url, params }) => endpointLinks(base_url, params, body.id),
    headers: { "cache-control": "no-store" },
    responses: { 201: { description: "The endpoint, with its signing secret shown this once", schema: WithSecret } },
    errors: ["IDS-403-003", "IDS-404-001", "IDS-409-003"],
  }),
  defineRoute({
    operationId: "getWebhookEndpoint",
    method: "GET",
    path: ITEM_PATH,
    tag: TAG,
    summary: "Read a webhook endpoint (never its secret)",
    description: ACCESS,
    security: ["DashboardSession"],
    params: EndpointPath,
    operation: `query WebhookEndpoint($org_id: ID!, $env_id: ID!, $endpoint_id: ID!) { endpoint: webhook_endpoint(org_id: $org_id, env_id: $env_id, endpoint_id: $endpoint_id) { ${WEBHOOK_ENDPOINT_FIELDS} } }`,
    variables: ({ params }) => pathOf(params),
    result: (data) => data.endpoint,
    links: (body, { base_url, params }) => endpointLinks(base_url, params, body.id),
    responses: { 200: { description: "The endpoint", schema: withLinks(WebhookEndpoint) } },
    errors: ["IDS-404-001"],
  }),
  defineRoute({
    operationId: "updateWebhookEndpoint",
    method: "PATCH",
    path: ITEM_PATH,
    tag: TAG,
    summary: "Change a webhook endpoint's URL, event types, description or enabled",
    description:
      "Fields left out stay; `event_types` replaces the whole list; `description: null` removes it. `enabled: true` enables it again and clears `disabled_reason` (after `gone` or `failing` too, when it gets five more days before `failing` again; its deliveries still pending are sent, and POST …/events/redeliver sends the failed ones again); `enabled: false` disables it with `disabled_reason: \"user\"`. " +
      ACCESS,
    security: ["DashboardSession"],
    params: EndpointPath,
    body: UpdateWebhookEndpointInput,
    operation: `mutation UpdateWebhookEndpoint($org_id: ID!, $env_id: ID!, $endpoint_id: ID!, $input: UpdateWebhookEndpointInput!) { endpoint: update_webhook_endpoint(org_id: $org_id, env_id: $env_id, endpoint_id: $endpoint_id, input: $input) { ${WEBHOOK_ENDPOINT_FIELDS} } }`,
    variables: ({ params, body }) => ({ ...pathOf(params), input: body }),
    result: (data) => data.endpoint,
    links: (body, { base_url, params }) => endpointLinks(base_url, params, body.id),
    responses: { 200: { description: "The endpoint", schema: withLinks(WebhookEndpoint) } },
    errors: ["IDS-403-003", "IDS-404-001"],
  }),
  defineRoute({
    operationId: "deleteWebhookEndpoint",
    method: "DELETE",
    path: ITEM_PATH,
    tag: TAG,
    summary: "Delete a webhook endpoint",
    description: `Answers **204**; nothing more is delivered to it, and it no longer counts towards the environment's ${MAX_WEBHOOK_ENDPOINTS}. ${ACCESS}`,
    security: ["DashboardSession"],
    params: EndpointPath,
    operation: `mutation DeleteWebhookEndpoint($org_id: ID!, $env_id: ID!, $endpoint_id: ID!) { deleted: delete_webhook_endpoint(org_id: $org_id, env_id: $env_id, endpoint_id: $endpoint_id) }`,
    variables: ({ params }) => pathOf(params),
    result: () => undefined,
    status: 204,
    responses: { 204: { description: "Deleted" } },
    errors: ["IDS-403-003", "IDS-404-001"],
  }),
  defineRoute({
    operationId: "emitSandboxEvent",
    method: "POST",
    path: "/v0/sandbox/organisation/{org_id}/environments/{env_id}/events",
    tag: SANDBOX_TAG,
    summary: "Sandbox mode only: emit a test event of any type to the environment's webhook endpoints",
    description:
      "**Exists only in sandbox mode** (`SANDBOX=true`, the default unless `NODE_ENV=production`); otherwise this path answers 404 like any unknown path and is not in this document. " +
      "Makes an outgoing event of the catalogue `type` in the environment, its `data` a sample made from the type's payload schema examples (`webhooks` in this document; no real resource changes, and `resource.id` is the sample's), " +
      "and hands it to the same store and delivery as every event: listed by the events API, delivered to each enabled endpoint of the environment subscribed to the type (or `*`), signed, retried and redeliverable. " +
      `Answers the event (201). ${ACCESS}`,
    security: ["DashboardSession"],
    params: EnvPath,
    body: Type.Object({ type: literalUnion(EVENT_TYPES, { description: "the catalogue type to emit" }) }),
    operation: `mutation EmitSandboxEvent($org_id: ID!, $env_id: ID!, $type: String!) { event: sandbox_emit_event(org_id: $org_id, env_id: $env_id, type: $type) { ${ORGANISATION_EVENT_FIELDS} } }`,
    variables: ({ params, body }) => ({ org_id: params.org_id, env_id: params.env_id, type: body.type }),
    result: (data) => data.event,
    status: 201,
    links: (body, { base_url, params }) => ({
      event: link(href(base_url, "/v0/organisation/{org_id}/events/{event_id}", { org_id: params.org_id, event_id: body.id })),
      events: link(href(base_url, "/v0/organisation/{org_id}/events", { org_id: params.org_id })),
      webhook_endpoints: link(href(base_url, LIST_PATH, params)),
    }),
    responses: { 201: { description: "The test event, stored and on its way to the subscribed endpoints", schema: withLinks(OrganisationEvent) } },
    errors: ["IDS-403-003", "IDS-404-001"],
  }),
  defineRoute({
    operationId: "rotateWebhookEndpointSecret",
    method: "POST",
    path: `${ITEM_PATH}/rotate-secret`,
    tag: TAG,
    summary: "Rotate a webhook endpoint's signing secret",
    description:
      `Answers the new \`secret\` this once. For \`overlap_seconds\` (0 to ${MAX_SECRET_OVERLAP_SECONDS}, default ${DEFAULT_SECRET_OVERLAP_SECONDS}: a day) deliveries carry both signatures, \`webhook-signature: v1,<new> v1,<old>\`, so receivers can switch without missing one; 0 ends the old secret at once. ` +
      `A rotation during an overlap drops the older secret: at most two sign. Send \`{}\` for the default overlap. ${ACCESS}`,
    security: ["DashboardSession"],
    params: EndpointPath,
    body: RotateWebhookSecretInput,
    operation: `mutation RotateWebhookEndpointSecret($org_id: ID!, $env_id: ID!, $endpoint_id: ID!, $input: RotateWebhookSecretInput!) { endpoint: rotate_webhook_endpoint_secret(org_id: $org_id, env_id: $env_id, endpoint_id: $endpoint_id, input: $input) { ${WEBHOOK_ENDPOINT_FIELDS} secret } }`,
    variables: ({ params, body }) => ({ ...pathOf(params), input: body }),
    result: (data) => data.endpoint,
    links: (body, { base_url, params }) => endpointLinks(base_url, params, body.id),
    headers: { "cache-control": "no-store" },
    responses: { 200: { description: "The endpoint, with its new signing secret shown this once", schema: WithSecret } },
    errors: ["IDS-403-003", "IDS-404-001"],
  }),
];
