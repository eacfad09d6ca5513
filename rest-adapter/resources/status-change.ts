import type { RestResource } from "../route-kit/resource-overlay.ts";

/** One account status change of a user (spec 2.2), answered only within a User (expand=status_history). */
export const resource = { type: "StatusChange", types: {}, links: false } satisfies RestResource;
