// GET /health (spec 4.3: 200 when healthy, 503 when dependencies are unavailable) is made of
// checks, one per store a deployment depends on: each subgraph answers for its own database
// (lib/graphql/health.ts) and the serving process for its PostgreSQL rate-limit store.

export interface HealthCheckResult {
  /** what was checked: `<subgraph> database`, `rate-limit store` */
  name: string;
  status: "ok" | "unavailable";
}

/**
 * How long one check may take, so /health answers within a second whatever a store does: its
 * checks run in two rounds (the users subgraph's with Query.health, then the others' side by side).
 */
export const HEALTH_CHECK_TIMEOUT_MS = 400;

/** Runs `ping`; any failure (its detail stays out of the answer), or no answer within `timeoutMs`, is `unavailable`. */
export async function probe(name: string, ping: () => Promise<unknown>, timeoutMs = HEALTH_CHECK_TIMEOUT_MS): Promise<HealthCheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("no answer in time")), timeoutMs)));
  try {
    await Promise.race([ping(), late]);
    return { name, status: "ok" };
  } catch {
    return { name, status: "unavailable" };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `ping` shared by every call while one is under way: a store that hangs holds one connection
 * for all the /health polls meanwhile (each giving up after its own bound), not one per poll.
 */
export function oneAtATime<T>(ping: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () =>
    (running ??= ping().finally(() => {
      running = undefined;
    }));
}

/** The checks that failed, by name; empty when healthy. A status other than `ok` (as a subgraph answers it over GraphQL) is a failure. */
export function failingChecks(checks: readonly { name: string; status: string }[]): string[] {
  return checks.filter((check) => check.status !== "ok").map((check) => check.name);
}
