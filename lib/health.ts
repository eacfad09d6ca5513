// GET /health (spec 4.3: 200 when healthy, 503 when dependencies are unavailable) is made of
// checks, one per store a deployment depends on: each subgraph answers for its own database
// (lib/graphql/health.ts) and the serving process for its PostgreSQL rate-limit store.

export interface HealthCheckResult {
  /** what was checked: `<subgraph> database`, `rate-limit store` */
  name: string;
  status: "ok" | "unavailable";
}

/** Runs `ping`; any failure (its detail stays out of the answer) is `unavailable`. */
export async function probe(name: string, ping: () => Promise<unknown>): Promise<HealthCheckResult> {
  try {
    await ping();
    return { name, status: "ok" };
  } catch {
    return { name, status: "unavailable" };
  }
}

/** The checks that failed, by name; empty when healthy. A status other than `ok` (as a subgraph answers it over GraphQL) is a failure. */
export function failingChecks(checks: readonly { name: string; status: string }[]): string[] {
  return checks.filter((check) => check.status !== "ok").map((check) => check.name);
}
