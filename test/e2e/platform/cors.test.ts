import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// CORS_ORIGINS (lib/cors.ts): the test platform runs without NODE_ENV, so with the development
// default (every port of http://localhost, http://127.0.0.1 and http://[::1])
const ALLOWED = "http://localhost:5173";
const DISALLOWED = "https://evil.example";

let platform: TestPlatform;
let withoutCors: TestPlatform;
beforeAll(async () => {
  [platform, withoutCors] = await Promise.all([startTestPlatform(), startTestPlatform({ CORS_ORIGINS: "none" })]);
});
afterAll(async () => {
  await Promise.all([platform?.stop(), withoutCors?.stop()]);
});

const preflight = (url: string, origin: string, method: string, headers: string) =>
  fetch(url, { method: "OPTIONS", headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers } });

const corsHeaders = (response: Response) => [...response.headers].filter(([name]) => name.startsWith("access-control-") || name === "vary");

describe("the documents' server", () => {
  it.each(["platform", "identity", "rpc"] as const)("the %s document's server is relative, so /docs' try it out calls the host it was opened on", async (host) => {
    // the listener's address is 127.0.0.1, its public URL (PUBLIC_BASE_URL's default) http://localhost:<port>
    const document = (await (await fetch(`${platform.urls[host]}/openapi.json`)).json()) as { servers: { url: string }[] };
    expect(document.servers).toEqual([{ url: "/", description: expect.any(String) }]);
  });

  it("describes CORS and this deployment's origins", async () => {
    for (const host of ["platform", "identity"] as const) {
      const { info } = (await (await fetch(`${platform.urls[host]}/openapi.json`)).json()) as { info: { description: string } };
      expect(info.description, host).toContain("`CORS_ORIGINS`");
      expect(info.description, host).toContain("`http://localhost:*`");
    }
  });
});

describe("preflights", () => {
  it("from an allowed origin: 204 without a credential, the path's methods, the host's credential headers, two hours", async () => {
    const cases = [
      [`${platform.urls.platform}/v0/user/me`, "GET", "x-platform-jwt, x-timestamp-format", "x-platform-jwt", "GET"],
      [`${platform.urls.platform}/v0/cards`, "POST", "content-type, idempotency-key, x-platform-pat", "idempotency-key", "GET, POST"],
      [`${platform.urls.identity}/v0/organisation/org_x/members/mem_y`, "DELETE", "authorization", "authorization", "PATCH, DELETE"],
      [`${platform.urls.identity}/v0/idsvc/token/pint`, "POST", "authorization, content-type", "x-platform-pint-token", "GET, POST"],
    ] as const;
    for (const [url, method, requested, allowedHeader, methods] of cases) {
      const response = await preflight(url, ALLOWED, method, requested);
      expect(response.status, url).toBe(204);
      expect(await response.text()).toBe("");
      expect(response.headers.get("access-control-allow-origin"), url).toBe(ALLOWED);
      expect(response.headers.get("access-control-allow-methods"), url).toBe(methods);
      const headers = response.headers.get("access-control-allow-headers")!.split(", ");
      for (const name of [...requested.split(", "), allowedHeader]) expect(headers, url).toContain(name);
      expect(response.headers.get("access-control-max-age")).toBe("7200");
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
      expect(response.headers.get("vary")).toBe("Origin");
    }
    // each host allows its own credentials only
    const platformHeaders = (await preflight(`${platform.urls.platform}/v0/user/me`, ALLOWED, "GET", "authorization")).headers.get("access-control-allow-headers")!;
    expect(platformHeaders.split(", ")).not.toContain("authorization");
    for (const origin of ["http://127.0.0.1:3000", "http://[::1]:8080", "http://localhost"]) {
      expect((await preflight(`${platform.urls.platform}/health`, origin, "GET", "")).headers.get("access-control-allow-origin"), origin).toBe(origin);
    }
  });

  it("from another origin: 204 with nothing allowed, so the browser refuses", async () => {
    for (const origin of [DISALLOWED, "null", "http://localhost.evil.example", "https://localhost:3000", "http://localhost:3000.evil.example"]) {
      const response = await preflight(`${platform.urls.platform}/v0/user/me`, origin, "GET", "x-platform-jwt");
      expect(response.status, origin).toBe(204);
      expect(corsHeaders(response), origin).toEqual([["vary", "Origin"]]);
    }
  });

  it("of an unknown path: 404 as before, whatever the origin", async () => {
    for (const origin of [ALLOWED, DISALLOWED]) {
      const response = await preflight(`${platform.urls.platform}/v0/nothing`, origin, "GET", "x-platform-jwt");
      expect(response.status).toBe(404);
      expect((await response.json()).error_code).toBe("GEN-404-001");
      expect(response.headers.get("access-control-allow-methods")).toBeNull();
    }
  });
});

describe("answers to an origin", () => {
  it("an allowed origin's answers carry its origin and expose Retry-After and X-Request-Id, errors included", async () => {
    const { jwt } = await platform.createUser();
    const ok = await fetch(`${platform.urls.platform}/v0/user/me`, { headers: { origin: ALLOWED, "x-platform-jwt": jwt } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(ALLOWED);
    expect(ok.headers.get("access-control-expose-headers")).toBe("retry-after, x-request-id, allow");
    expect(ok.headers.get("vary")).toBe("Origin");
    const refused = await fetch(`${platform.urls.identity}/v0/idsvc/key`, { headers: { origin: ALLOWED } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(ALLOWED);
  });

  it("another origin's answers allow nothing (the server still answers; the browser withholds it)", async () => {
    const response = await fetch(`${platform.urls.platform}/health`, { headers: { origin: DISALLOWED } });
    expect(response.status).toBe(200);
    expect(corsHeaders(response)).toEqual([["vary", "Origin"]]);
  });
});

describe("a client without Origin (every spec client)", () => {
  /** What a client sees of an answer, the per-request trace id, date and the two platforms' ports aside. */
  async function seen(base: string, path: string, init: RequestInit = {}) {
    const response = await fetch(base + path, init);
    const ports = (text: string) => text.replace(/(localhost|127\.0\.0\.1):\d+/g, "$1");
    const headers = [...response.headers].filter(([name]) => !["date", "x-request-id", "content-length"].includes(name)).map(([name, value]) => [name, ports(value)]);
    return { status: response.status, headers, body: ports(await response.text()).replace(/"trace_id":"\w+"/, "") };
  }

  it("gets the same answers as from a listener without CORS, OPTIONS included", async () => {
    const requests: [keyof TestPlatform["urls"], string, RequestInit?][] = [
      ["platform", "/health"],
      ["platform", "/v0/user/me"],
      ["platform", "/v0/user/me", { method: "OPTIONS" }],
      ["platform", "/v0/user/me", { method: "OPTIONS", headers: { "access-control-request-method": "GET" } }],
      ["platform", "/v0/nothing", { method: "OPTIONS" }],
      ["platform", "/v0/user/", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }],
      ["identity", "/v0/idsvc/key"],
      ["identity", "/v0/organisations", { method: "OPTIONS" }],
    ];
    for (const [host, path, init] of requests) {
      const [a, b] = [await seen(platform.urls[host], path, init), await seen(withoutCors.urls[host], path, init)];
      expect(a, `${init?.method ?? "GET"} ${path}`).toEqual(b);
      expect(a.headers.filter(([name]) => name!.startsWith("access-control-") || name === "vary")).toEqual([]);
    }
    expect((await fetch(`${platform.urls.platform}/v0/user/me`, { method: "OPTIONS" })).status).toBe(405);
  });

  it("a listener without CORS answers a preflight as any OPTIONS: 405", async () => {
    const response = await preflight(`${withoutCors.urls.platform}/v0/user/me`, ALLOWED, "GET", "x-platform-jwt");
    expect(response.status).toBe(405);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});
