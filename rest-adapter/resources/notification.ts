import type { RestResource } from "../route-kit/resource-overlay.ts";
import { Type } from "@sinclair/typebox";
import { href, link } from "../route-kit/links.ts";
import { defineRoute } from "../route-kit/route.ts";
import { Links, withLinks } from "../route-kit/schemas.ts";
import type * as Generated from "./resources.generated.ts";

/** An in-app notification in REST, written inline by its routes (GET /v0/notifications). */
export const resource = {
  type: "Notification",
  component: false,
  types: { Notification: { fields: { data: { description: "the figures behind it (decimal strings)" } } } },
} satisfies RestResource;

/** In-app notifications: what alert strategies tell the user. */
export const routes = ({ Notification, NOTIFICATION_FIELDS }: typeof Generated) => [
  defineRoute({
    operationId: "listNotifications",
    method: "GET",
    path: "/v0/notifications",
    tag: "User",
    summary: "Your notifications, newest first",
    description: "Alerts from your strategies (low balance, spending cap), one per run that found something. `unread=true` lists the unread ones only.",
    security: ["PlatformJwt", "PlatformPat"],
    agentScope: "read:transactions",
    agentExample: { unread: true },
    query: Type.Object({ unread: Type.Optional(Type.Boolean({ default: false })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) }),
    operation: `query ListNotifications($unread: Boolean, $limit: Int) { notifications(unread: $unread, limit: $limit) { ${NOTIFICATION_FIELDS} } }`,
    variables: ({ query }) => ({ unread: query.unread ?? null, limit: query.limit ?? null }),
    result: (data) => ({ items: data.notifications }),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/v0/notifications")) }),
    responses: { 200: { description: "The notifications", schema: Type.Object({ items: Type.Array(Notification), _links: Links }) } },
    errors: ["USR-404-001", "AGT-403-003"],
  }),
  defineRoute({
    operationId: "markNotificationRead",
    method: "POST",
    path: "/v0/notifications/{notification_id}/read",
    tag: "User",
    summary: "Mark a notification read",
    description: "Marking it again keeps the first `read_at`. Another user's or none: 404 `NTF-404-001`.",
    security: ["PlatformJwt", "PlatformPat"],
    params: Type.Object({ notification_id: Type.String({ minLength: 1, maxLength: 64 }) }),
    operation: `mutation MarkNotificationRead($id: ID!) { notification: mark_notification_read(id: $id) { ${NOTIFICATION_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.notification_id }),
    result: (data) => data.notification,
    links: (_body, { base_url }) => ({ list: link(href(base_url, "/v0/notifications")) }),
    responses: { 200: { description: "The notification, read", schema: withLinks(Notification) } },
    errors: ["NTF-404-001", "USR-403-001", "USR-404-001"],
  }),
];
