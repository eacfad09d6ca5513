import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_ROUTE_BODY_LIMIT } from "../../../rest-adapter/route-kit/route.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ HTTP_REQUEST_TIMEOUT_MS: "400", HTTP_KEEP_ALIVE_TIMEOUT_MS: "300" });
});
afterAll(() => platform?.stop());

/** Raw HTTP on one socket: what it received, and how long until the server closed it. */
function rawExchange(url: string, request: string, waitMs: number): Promise<{ received: string; closedAfterMs: number | undefined }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    let received = "";
    let closedAfterMs: number | undefined;
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.on("data", (chunk) => (received += chunk.toString("utf8")));
    socket.on("close", () => {
      closedAfterMs = Date.now() - started;
      resolve({ received, closedAfterMs });
    });
    socket.on("error", () => {});
    setTimeout(() => {
      if (closedAfterMs === undefined) {
        socket.destroy();
        resolve({ received, closedAfterMs: undefined });
      }
    }, waitMs);
  });
}

/**
 * Keeps the event loop busy in 300 ms slices, as a CPU-bound burst would, until `done()` or for at
 * most `maxMs`. Requests from this process get through only between slices, one or two per second,
 * so a fixed short burst may end before a request has met each shedding window.
 */
function stallEventLoop(maxMs: number, done: () => boolean): Promise<void> {
  const until = Date.now() + maxMs;
  return new Promise((resolve) => {
    const slice = () => {
      const end = Date.now() + 300;
      while (Date.now() < end);
      if (Date.now() < until && !done()) setImmediate(slice);
      else resolve();
    };
    slice();
  });
}

describe("security headers", () => {
  it("every listener sends helmet's headers, with a policy that lets /docs load only its own scripts", async () => {
    for (const url of [`${platform.urls.platform}/health`, `${platform.urls.platform}/docs`, `${platform.urls.identity}/v0/nothing`, `${platform.urls.rpc}/health`, platform.urls.graphql]) {
      const response = await fetch(url);
      expect(response.headers.get("x-content-type-options"), url).toBe("nosniff");
      expect(response.headers.get("strict-transport-security"), url).toMatch(/max-age=\d+/);
      expect(response.headers.get("x-frame-options"), url).toBe("SAMEORIGIN");
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-powered-by"), url).toBeNull();
    }
    const csp = (await fetch(`${platform.urls.platform}/docs`)).headers.get("content-security-policy")!;
    expect(csp).toContain(`connect-src 'self' ${new URL(platform.config.publicBaseUrl).origin}`);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });
});

describe("body limits", () => {
  it(`refuses a JSON body over ${DEFAULT_ROUTE_BODY_LIMIT} bytes on a route with 413 GEN-413-001 before any credential or handler sees it`, async () => {
    const { jwt } = await platform.createUser();
    const padding = "x".repeat(DEFAULT_ROUTE_BODY_LIMIT);
    const response = await platform.api("/v0/user/me/strategies", { method: "POST", jwt, json: { strategy_id: "stg_round_up", parameters: {}, padding } });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect((await response.json()).error_code).toBe("GEN-413-001");
    const under = await platform.api("/v0/user/me/strategies", { method: "POST", jwt, json: { strategy_id: "stg_round_up", parameters: {}, padding: padding.slice(0, DEFAULT_ROUTE_BODY_LIMIT - 1024) } });
    expect(under.status).not.toBe(413);
  });
});

describe("timeouts", () => {
  it("answers 408 and closes a connection whose request body never arrives (HTTP_REQUEST_TIMEOUT_MS)", async () => {
    const { received, closedAfterMs } = await rawExchange(
      platform.urls.platform,
      "POST /v0/user/ HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
      5_000,
    );
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeLessThan(3_000);
  });

  it("closes an idle keep-alive connection after HTTP_KEEP_ALIVE_TIMEOUT_MS", async () => {
    const { received, closedAfterMs } = await rawExchange(platform.urls.platform, "GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n", 5_000);
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(closedAfterMs).toBeDefined();
    expect(closedAfterMs!).toBeLessThan(3_000);
  });
});

describe("load shedding", () => {
  // its own platform: a threshold this low would shed the other suites' ordinary requests
  let shedding: TestPlatform;
  beforeAll(async () => {
    shedding = await startTestPlatform({ LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: "150", LOAD_SHED_SAMPLE_INTERVAL_MS: "50", LOAD_SHED_RETRY_AFTER_SECONDS: "3" });
  });
  afterAll(() => shedding?.stop());

  it("while the event loop lags, answers 503 GEN-503-002 with Retry-After at once on REST and GraphQL, and serves again when it recovers", async () => {
    const answers: Response[] = [];
    const graphql: Response[] = [];
    const bothShed = () => answers.some((r) => r.status === 503) && graphql.some((r) => r.status === 503);
    const stalled = stallEventLoop(15_000, bothShed);
    while (answers.length < 30 && !bothShed()) {
      answers.push(await fetch(`${shedding.urls.platform}/health`));
      graphql.push(await fetch(shedding.urls.graphql, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ __typename }" }) }));
    }
    await stalled;
    const shed = answers.find((r) => r.status === 503);
    expect(shed, `statuses: ${answers.map((r) => r.status).join(",")}`).toBeDefined();
    expect(shed!.headers.get("retry-after")).toBe("3");
    expect(await shed!.json()).toMatchObject({ error_code: "GEN-503-002", status: 503, title: "Overloaded" });
    const shedGraphql = graphql.find((r) => r.status === 503);
    expect(shedGraphql).toBeDefined();
    expect(shedGraphql!.headers.get("retry-after")).toBe("3");
    expect((await shedGraphql!.json()).errors[0].extensions.error_code).toBe("GEN-503-002");

    // a quiet sample later the lag is gone: served again, no restart
    let status = 0;
    for (const until = Date.now() + 3_000; status !== 200 && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await fetch(`${shedding.urls.platform}/health`)).status;
    }
    expect(status).toBe(200);
  });
});
