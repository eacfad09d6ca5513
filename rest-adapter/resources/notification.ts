import type { RestResource } from "../route-kit/resource-overlay.ts";

/** An in-app notification in REST, written inline by its routes (GET /v0/notifications). */
export const resource = {
  type: "Notification",
  component: false,
  types: { Notification: { fields: { data: { description: "the figures behind it (decimal strings)" } } } },
} satisfies RestResource;
