import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOtlpCollector, type CollectedSpan } from "../../support/otlp-collector.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

let collector: Awaited<ReturnType<typeof startOtlpCollector>>;
let platform: TestPlatform;
let problemTrace: string;
let continuedTrace: string;
const CALLER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const CALLER_SPAN = "00f067aa0ba902b7";
// a plan over the users and finance subgraphs, sent three times: the later runs are of a learnt
// plan, which skips Apollo's executor only when tracing is off (gateway/plan-execution.ts)
const FAN_OUT = `{ me { id pints { active_count } transactions(page: { limit: 1 }) { pagination { total } } } }`;
const fanOutTraces = ["4bf92f3577b34da6a3ce929d0e0e4701", "4bf92f3577b34da6a3ce929d0e0e4702", "4bf92f3577b34da6a3ce929d0e0e4703"];

beforeAll(async () => {
  collector = await startOtlpCollector();
  platform = await startTestPlatform({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
  const { jwt } = await platform.createUser();
  const missing = await get(`${platform.urls.platform}/v0/wallets/999999`, { "x-platform-jwt": jwt });
  expect(missing.status).toBe(404);
  problemTrace = missing.body.trace_id;
  continuedTrace = (await get(`${platform.urls.platform}/v0/wallets/999998`, { "x-platform-jwt": jwt, traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01` })).body.trace_id;
  for (const trace of fanOutTraces) {
    const answer = await post(platform.urls.graphql, { query: FAN_OUT }, { "x-platform-jwt": jwt, traceparent: `00-${trace}-${CALLER_SPAN}-01` });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
  }
  // stopping flushes the spans still batched
  await platform.stop();
}, 120_000);
afterAll(() => collector?.stop());

/** node:http, not fetch: this process traces its own fetches too, which would make the test a caller with a trace of its own. */
function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return send(url, "GET", headers);
}

function post(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return send(url, "POST", { ...headers, "content-type": "application/json" }, JSON.stringify(body));
}

function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

const inTrace = (traceId: string) => collector.spans.filter((span: CollectedSpan) => span.traceId === traceId);

describe("tracing (OTEL_EXPORTER_OTLP_ENDPOINT)", () => {
  it("a ProblemDetail's trace_id is its request's trace, with a server span named after the route", () => {
    expect(problemTrace).toMatch(/^[0-9a-f]{32}$/);
    const server = inTrace(problemTrace).find((span) => span.kind === 2);
    expect(server).toMatchObject({ name: "GET /v0/wallets/:wallet_id", service: "platform", parentSpanId: "" });
    expect(server!.attributes).toMatchObject({ "http.route": "/v0/wallets/:wallet_id", "http.response.status_code": 404, "platform.listener": "platform" });
  });

  it("the request's trace holds the gateway's spans, under the server span, and the database calls", () => {
    const spans = inTrace(problemTrace);
    const server = spans.find((span) => span.kind === 2)!;
    const gateway = spans.filter((span) => span.name.startsWith("gateway."));
    expect(gateway.map((span) => span.name)).toEqual(expect.arrayContaining(["gateway.request", "gateway.plan", "gateway.execute", "gateway.fetch"]));
    const ids = new Set(spans.map((span) => span.spanId));
    for (const span of gateway) expect(ids.has(span.parentSpanId), span.name).toBe(true);
    expect(gateway.find((span) => span.name === "gateway.request")!.parentSpanId).toBe(server.spanId);
    expect(spans.filter((span) => span.name === "prisma:client:operation").map((span) => span.attributes.name)).toContain("Wallet.findFirst");
  });

  it("a repeated query over several subgraphs keeps the gateway's execution and fetch spans", () => {
    for (const trace of fanOutTraces) {
      const names = inTrace(trace).map((span) => span.name);
      expect(names, trace).toContain("gateway.execute");
      expect(names.filter((name) => name === "gateway.fetch").length, trace).toBeGreaterThanOrEqual(2);
    }
  });

  it("continues a caller's trace from traceparent", () => {
    expect(continuedTrace).toBe(CALLER_TRACE);
    const server = inTrace(CALLER_TRACE).find((span) => span.kind === 2);
    expect(server?.parentSpanId).toBe(CALLER_SPAN);
  });
});
