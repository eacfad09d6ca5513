import { Type } from "@sinclair/typebox";
import { appError } from "../../lib/errors/app-error.ts";
import { SUBGRAPH_NAMES, type SubgraphName } from "../../lib/graphql/subgraph-registry.ts";
import { failingChecks, probe, type HealthCheckResult } from "../../lib/health.ts";
import type { RateLimits } from "../../lib/rate-limit/rate-limits.ts";
import { defineRoute } from "../route-kit/route.ts";
import { href, link } from "../route-kit/links.ts";
import { withLinks } from "../route-kit/schemas.ts";

/**
 * The serving process's own stores, which no subgraph can answer for: the rate-limit store when
 * it is PostgreSQL (in split mode the adapter opens DATABASE_URL for it). The adapter adds them to
 * the health operation's data as `process_checks` (rest-adapter/route-kit/app.ts).
 */
export async function processHealthChecks(rateLimits: RateLimits | undefined): Promise<HealthCheckResult[]> {
  const ping = rateLimits?.limiter.ping;
  return ping ? [await probe("rate-limit store", ping)] : [];
}

/** The health operation's data (each subgraph's check; null when it cannot be reached) and the adapter's `process_checks`. */
interface HealthData {
  health: Partial<Record<SubgraphName, { name: string; status: string } | null>>;
  process_checks?: HealthCheckResult[];
}

/** 200 `{status, database}` when every check is ok; else 503 GEN-503-001 naming the failing ones. */
export function healthResult(data: HealthData): { status: "ok"; database: "ok" } {
  const checks = [
    ...SUBGRAPH_NAMES.map((name) => data.health[name] ?? { name: `${name} database`, status: "unavailable" }),
    ...(data.process_checks ?? []),
  ];
  const failing = failingChecks(checks);
  if (failing.length > 0) throw appError("GEN-503-001", `Unavailable: ${failing.join(", ")}.`);
  return { status: "ok", database: "ok" };
}

export const healthRoutes = [
  defineRoute({
    operationId: "health",
    method: "GET",
    path: "/health",
    tag: "Health",
    summary: "Liveness and dependencies",
    description:
      "200 when every store the deployment depends on answers: each subgraph's database and, on PostgreSQL, the rate-limit store. " +
      "503 ProblemDetail (`GEN-503-001`) while one does not; its `detail` names them (`Unavailable: finance database, rate-limit store.`). Recovers without a restart.",
    security: [],
    operation: `query Health { health { ${SUBGRAPH_NAMES.map((name) => `${name} { name status }`).join(" ")} } }`,
    result: (data) => healthResult(data),
    links: (_body, { base_url }) => ({ self: link(href(base_url, "/health")) }),
    responses: { 200: { description: "Healthy", schema: withLinks(Type.Object({ status: Type.Literal("ok"), database: Type.Literal("ok") })) } },
    errors: [],
  }),
];
