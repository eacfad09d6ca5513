import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestIssuer } from "../../support/jwt-issuer.ts";
import { startOtlpCollector, type CollectedSpan } from "../../support/otlp-collector.ts";
import { spawnPlatform, type PlatformProcess } from "../../support/platform-process.ts";
import { freshDatabaseUrl } from "../../support/test-database.ts";

// Issue 32: background work is traced per job run that does work, one root span with its queries
// as children, and an idle server's polls export nothing. The server is `npm start`'s own process
// (dist/start.js), exporting every 100 ms to an OTLP/HTTP receiver on loopback.
const ORG = "org_quiet";
const ENV = "env_quiet";
/** Each standing job that polls every second (outbox relay, webhook deliveries, ledger events) polls four times; before, ~70 spans. */
const IDLE_MS = 4_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let collector: Awaited<ReturnType<typeof startOtlpCollector>>;
let dashboard: TestIssuer;
let receiver: Server;
let platform: PlatformProcess;
let owner: string;
/** webhook-id of each delivery the receiver got */
const received: string[] = [];

beforeAll(async () => {
  collector = await startOtlpCollector();
  dashboard = await TestIssuer.start();
  receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      received.push(String(request.headers["webhook-id"]));
      response.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const databaseUrl = await freshDatabaseUrl();
  platform = await spawnPlatform({
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    DATA_DIR: "memory://",
    AUTH_PROVIDERS: "[]",
    DASHBOARD_AUTH: JSON.stringify([{ name: "dashboard", issuer: dashboard.issuer, jwks_uri: dashboard.jwksUri }]),
    IDENTITY_BOOTSTRAP: JSON.stringify({ organisation: { id: ORG, name: "Quiet Ltd", contact_email: "ops@quiet.test" }, environment: { id: ENV, name: "Quiet" }, members: [{ sub: "quiet-owner" }] }),
    JWKS_ALLOW_LOOPBACK_HTTP: "true",
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: "0",
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_BSP_SCHEDULE_DELAY: "100",
  });
  owner = await dashboard.sign({ sub: "quiet-owner" });
  const endpoint = await identity(`/v0/organisation/${ORG}/environments/${ENV}/webhook-endpoints`, { url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`, event_types: ["user.kyc_status_changed"] });
  expect(endpoint.status, await endpoint.clone().text()).toBe(201);
});

afterAll(async () => {
  if (platform && platform.child.exitCode === null) {
    platform.child.kill("SIGTERM");
    await platform.exited;
  }
  await dashboard?.stop();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  await collector?.stop();
});

function identity(path: string, json: unknown): Promise<Response> {
  return fetch(`${platform.urls.identity}${path}`, { method: "POST", headers: { authorization: `Bearer ${owner}`, "content-type": "application/json" }, body: JSON.stringify(json) });
}

async function until<T>(what: string, find: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
    const found = find();
    if (found !== undefined) return found;
  }
  throw new Error(`${what} did not come within ${timeoutMs} ms:\n${platform.output().slice(-2000)}`);
}

describe("background work's traces (OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  it("an idle server exports no span: its queues' polls and standing jobs' empty passes are not traced", async () => {
    // the endpoint's request trace, exported within 100 ms, is behind us
    await sleep(1_000);
    const mark = collector.spans.length;
    await sleep(IDLE_MS);
    expect(collector.spans.slice(mark).map((span) => `${span.name} (${span.attributes.name ?? span.attributes["platform.job.kind"] ?? ""})`)).toEqual([]);
  });

  it("a job run that does work (a webhook delivery) is one root span with its queries as children", async () => {
    const mark = collector.spans.length;
    const emitted = await identity(`/v0/sandbox/organisation/${ORG}/environments/${ENV}/events`, { type: "user.kyc_status_changed" });
    expect(emitted.status, await emitted.clone().text()).toBe(201);
    const eventId = (await emitted.json()).id;
    await until(`the delivery of ${eventId}`, () => received.find((id) => id === eventId));
    await until("the delivery's span", () => collector.spans.slice(mark).find((span) => span.name === "job webhook_delivery"));
    // the passes after it find nothing: nothing more comes
    await sleep(1_500);

    const spans = collector.spans.slice(mark);
    const roots = spans.filter((span) => span.parentSpanId === "");
    expect(roots.filter((span) => span.name.startsWith("job ")).map((span) => span.name)).toEqual(["job webhook_delivery"]);
    // the other root: the request that emitted the event
    expect(roots.filter((span) => !span.name.startsWith("job ")).map((span) => span.name)).toEqual(["POST /v0/sandbox/organisation/:org_id/environments/:env_id/events"]);

    const job = roots.find((span) => span.name === "job webhook_delivery")!;
    expect(job).toMatchObject({ service: "platform", scope: "platform" });
    expect(job.attributes).toMatchObject({
      "platform.job.queue": "identity",
      "platform.job.kind": "webhook_delivery",
      "platform.job.id": "job_standing_webhook_delivery",
      "platform.job.attempt": 1,
      "platform.job.outcome": "later",
    });
    const run = spans.filter((span) => span.traceId === job.traceId);
    const ids = new Set(run.map((span) => span.spanId));
    for (const span of run) if (span !== job) expect(ids.has(span.parentSpanId), span.name).toBe(true);
    // the attempt's reads and its record, each with its database calls
    expect(run.filter((span) => span.name === "prisma:client:operation").map((span) => span.attributes.name)).toEqual(
      expect.arrayContaining(["WebhookDelivery.findUniqueOrThrow", "WebhookEndpoint.findUniqueOrThrow", "WebhookDeliveryAttempt.create", "WebhookDelivery.updateMany"]),
    );
    expect(run.some((span) => span.name.includes("db_query"))).toBe(true);
    // the job row's update after the run is part of it too
    expect(run.filter((span) => span.name === "prisma:client:operation").map((span) => span.attributes.name)).toContain("executeRaw");
  });
});
