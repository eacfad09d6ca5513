import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startTestPlatform, type TestPlatform } from "../../support/platform.ts";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({
    METRICS_PORT: String(await freePort()),
    RATE_LIMITS: JSON.stringify({ user: { limit: 1_000_000 }, ip: { limit: 1_000_000 }, api_key: { limit: 1_000_000 }, auth_failure: { limit: 2 }, auth_failure_address: { limit: 2 } }),
  });
});
afterAll(() => platform?.stop());

async function scrape(): Promise<string> {
  const response = await fetch(platform.urls.metrics);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of one series, or undefined when it is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

describe("GET /metrics (METRICS_PORT)", () => {
  it("serves Prometheus text on its own listener, nothing else there", async () => {
    expect(platform.urls.metrics).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const text = await scrape();
    expect(text).toContain("# TYPE platform_http_requests_total counter");
    expect(sample(text, "platform_process_resident_memory_bytes")).toBeGreaterThan(0);
    // promtool's naming rule: counters and only counters end in _total (Node's active handle counts are by type, summed in queries)
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => [name!, type!] as const);
    expect(types.filter(([name, type]) => name.endsWith("_total") !== (type === "counter"))).toEqual([]);
    expect(sample(text, "platform_nodejs_active_handles", { type: "Server" })).toBeGreaterThan(0);
    expect((await fetch(platform.urls.metrics.replace(/\/metrics$/, "/other"))).status).toBe(404);
    // and not on the public listeners
    expect((await fetch(`${platform.urls.platform}/metrics`)).status).toBe(404);
  });

  it("counts requests and their latency per listener, route template and status", async () => {
    const { jwt } = await platform.createUser();
    const before = sample(await scrape(), "platform_http_requests_total", { listener: "platform", route: "/v0/wallets/:wallet_id", status: "404" }) ?? 0;
    for (const id of [999_001, 999_002]) expect((await platform.api(`/v0/wallets/${id}`, { jwt })).status).toBe(404);
    await platform.api("/no/such/path");
    const text = await scrape();
    expect(sample(text, "platform_http_requests_total", { listener: "platform", method: "GET", route: "/v0/wallets/:wallet_id", status: "404" })).toBe(before + 2);
    expect(sample(text, "platform_http_requests_total", { listener: "platform", route: "unmatched", status: "404" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "platform_http_request_duration_seconds_count", { listener: "platform", route: "/v0/wallets/:wallet_id", status: "404" })).toBe(before + 2);
    expect(text).not.toContain("999001");
  });

  it("counts GraphQL operations by name and outcome, from /graphql and from REST routes alike", async () => {
    const { jwt } = await platform.createUser();
    const graphql = (query: string) => fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt }, body: JSON.stringify({ query }) });
    await graphql("query DashboardMe { me { id } }");
    await graphql("query DashboardBroken { nope }");
    expect((await platform.api("/v0/user/me", { jwt })).status).toBe(200);
    const text = await scrape();
    expect(sample(text, "platform_graphql_operations_total", { operation: "DashboardMe", type: "query", outcome: "ok" })).toBe(1);
    expect(sample(text, "platform_graphql_operations_total", { operation: "DashboardBroken", outcome: "error" })).toBe(1);
    expect(sample(text, "platform_graphql_operation_duration_seconds_count", { operation: "DashboardMe" })).toBe(1);
    // the REST route's own operation (GET /v0/user/me runs CurrentUser)
    expect(sample(text, "platform_graphql_operations_total", { operation: "CurrentUser", type: "query", outcome: "ok" })).toBeGreaterThanOrEqual(1);
  });

  it("counts a query POSTed again once per answer, though Apollo Server no longer runs it (gateway/known-operations.ts)", async () => {
    const { jwt } = await platform.createUser();
    const graphql = () => fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt }, body: JSON.stringify({ query: "query DashboardAgain { me { id } }" }) });
    for (let run = 0; run < 3; run++) expect((await graphql()).status).toBe(200);
    const text = await scrape();
    expect(sample(text, "platform_graphql_operations_total", { operation: "DashboardAgain", type: "query", outcome: "ok" })).toBe(3);
    expect(sample(text, "platform_graphql_operation_duration_seconds_count", { operation: "DashboardAgain" })).toBe(3);
  });

  it("reports job queues, webhook outcomes, rate-limit refusals and the database pool", async () => {
    await platform.createUser();
    for (let i = 0; i < 4; i++) await platform.api("/v0/user/me", { jwt: "not-a-jwt" });
    const expired = await platform.issuer.sign({ exp: Math.floor(Date.now() / 1000) - 60 });
    expect((await platform.api("/v0/user/me", { jwt: expired })).status).toBe(401);
    const webhook = await platform.api("/v0/webhooks/banking-provider/events", { method: "POST", json: { id: "evt_1", type: "link.completed", data: {} } });
    expect(webhook.status).toBe(401);
    const text = await scrape();
    const users = text.split("\n").filter((line) => line.startsWith('platform_job_queue_jobs{queue="users"'));
    expect(users.length).toBeGreaterThan(0);
    // outgoing webhooks: the identity service's deliveries, on a queue of their own (nothing owed here)
    expect(sample(text, "platform_job_queue_jobs", { queue: "identity", kind: "webhook_delivery" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "platform_outgoing_webhook_queue_age_seconds")).toBe(0);
    expect(sample(text, "platform_outgoing_webhook_due_deliveries")).toBe(0);
    expect(text).toContain("# TYPE platform_outgoing_webhook_attempt_duration_seconds histogram");
    expect(sample(text, "platform_webhook_deliveries_total", { receiver: "/v0/webhooks/banking-provider/events", status: "401" })).toBe(1);
    expect(sample(text, "platform_rate_limit_refusals_total", { rule: "auth_failure" })).toBeGreaterThanOrEqual(1);
    // the same garbage token twice, then refused before verifying; the expired one verified but is over
    expect(sample(text, "platform_credential_verifications_total", { outcome: "failed" })).toBe(2);
    expect(sample(text, "platform_credential_verifications_total", { outcome: "expired" })).toBe(1);
    expect(sample(text, "platform_credential_verifications_total", { outcome: "verified" })).toBeGreaterThanOrEqual(1);
    const total = sample(text, "platform_db_pool_connections", { state: "total" })!;
    const idle = sample(text, "platform_db_pool_connections", { state: "idle" })!;
    expect(sample(text, "platform_db_pool_connections", { state: "waiting" })).toBeGreaterThanOrEqual(0);
    // PostgreSQL: the pool's open connections, up to 10; PGlite: its one connection, idle unless a
    // query or transaction (a background job's) holds it as the scrape reads it
    if (platform.database.kind === "postgres") expect(total).toBeGreaterThan(0);
    else expect(total).toBe(1);
    expect(idle).toBeGreaterThanOrEqual(0);
    expect(idle).toBeLessThanOrEqual(total);
  });
});
