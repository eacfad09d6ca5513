import { Type } from "@sinclair/typebox";
import { defineRoute } from "../route.ts";
import { href, link } from "../links.ts";

export const healthRoutes = [
  defineRoute({
    operationId: "health",
    method: "GET",
    path: "/health",
    tag: "Health",
    summary: "Liveness and dependencies",
    description: "200 when the database answers; 503 ProblemDetail (`GEN-503-001`) while it does not. Recovers without a restart.",
    security: [],
    operation: `query Health { health { status database } }`,
    result: (data) => data.health,
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/health")) }),
    responses: { 200: { description: "Healthy", schema: Type.Object({ status: Type.Literal("ok"), database: Type.Literal("ok") }) } },
    errors: [503],
  }),
];
