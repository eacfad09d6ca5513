import type { FastifyInstance } from "fastify";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateApiKey } from "../../lib/auth/api-key.ts";
import type { Principal } from "../../lib/auth/principal.ts";
import { appError } from "../../lib/errors/app-error.ts";
import { SUBGRAPH_NAMES } from "../../lib/graphql/subgraph-registry.ts";
import type { GatewayClient, GatewayRequest } from "../../rest-adapter/route-kit/gateway-client.ts";
import { buildRpcApp, type RpcAppOptions } from "../../rest-adapter/hosts/rpc/app.ts";
import { gatewayKeyAuthenticator, type RpcAuthenticate } from "../../rest-adapter/hosts/rpc/auth.ts";

const KEY = generateApiKey("public", "test");
const PUBLIC: Principal = { kind: "api_key", key_id: "key_1", org_id: "org_1", env_id: "env_1", partition: "public", scopes: ["rpc.invoke"] };

function gatewayStub(execute: (request: GatewayRequest) => unknown = () => ({ data: { health: Object.fromEntries(SUBGRAPH_NAMES.map((name) => [name, { name: `${name} database`, status: "ok" }])) } })): GatewayClient {
  return { prepare: (source) => ({ source }), execute: async (request) => execute(request) as never };
}

/** A fetch that answers every JSON-RPC call with its method name, recording what it was sent. */
function echoFetch() {
  const sent: { url: string; init: RequestInit }[] = [];
  const fn = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    sent.push({ url: String(url), init: init! });
    const body = JSON.parse(String(init!.body));
    const answer = (c: { id: number; method: string }) => ({ jsonrpc: "2.0", id: c.id, result: c.method });
    return new Response(JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)), { headers: { "content-type": "application/json" } });
  });
  return { fetch: fn as unknown as typeof fetch, sent, calls: () => fn.mock.calls.length };
}

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function build(overrides: Partial<RpcAppOptions> = {}) {
  app = await buildRpcApp({
    gateway: gatewayStub(),
    logger: pino({ level: "silent" }),
    baseUrl: "http://rpc.test",
    docsUrl: "http://docs.test",
    authenticate: async () => PUBLIC,
    chainRpcUrls: { 1: "http://node.test/path" },
    rateLimit: { limit: 100, windowMs: 60_000 },
    ...overrides,
  });
  return app;
}

const call = (id: number, method = "eth_chainId") => ({ jsonrpc: "2.0", id, method });
const post = (target: FastifyInstance, body: unknown, url = "/v0/rpc/1", key = KEY) =>
  target.inject({ method: "POST", url, headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, payload: JSON.stringify(body) });

describe("RPC host authorisation", () => {
  it("refuses a public key without rpc.invoke with 403 missing_scope", async () => {
    const target = await build({ authenticate: async () => ({ ...PUBLIC, scopes: ["rpc.other"] }) as Principal });
    const response = await post(target, call(1));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32001, data: { reason: "missing_scope" } } });
  });

  it("maps verification failures: 401 from the authenticator stays 401, anything else is 503; non-key principals are 401", async () => {
    expect((await post(await build({ authenticate: async () => Promise.reject(appError("IDS-401-001")) }), call(1))).statusCode).toBe(401);
    await app!.close();
    const unavailable = await post(await build({ authenticate: async () => Promise.reject(appError("GEN-503-001")) }), call(1));
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.json().error.code).toBe(-32603);
    await app!.close();
    const dashboard = await post(await build({ authenticate: async () => ({ kind: "dashboard", issuer: "i", subject: "s" }) }), call(1));
    expect(dashboard.statusCode).toBe(401);
  });

  it("never asks the authenticator about something that is not a well-formed key", async () => {
    const authenticate = vi.fn<RpcAuthenticate>(async () => PUBLIC);
    const target = await build({ authenticate, fetch: echoFetch().fetch });
    for (const key of ["idsvc_pk_test_short", "eyJhbGciOi.x.y", `${KEY}x`]) expect((await post(target, call(1), "/v0/rpc/1", key)).statusCode).toBe(401);
    expect(authenticate).not.toHaveBeenCalled();
    expect((await post(target, call(1))).statusCode).toBe(200);
    expect(authenticate).toHaveBeenCalledWith({ authorization: `Bearer ${KEY}` }, expect.any(String), { clientAddress: "127.0.0.1" });
  });
});

describe("RPC host forwarding", () => {
  it("counts a batch of N as N against the key's rpc rule, refusing before anything is forwarded", async () => {
    const upstream = echoFetch();
    const target = await build({ fetch: upstream.fetch, rateLimit: { limit: 3, windowMs: 60_000 } });
    const refused = await post(target, [call(1), call(2), call(3), call(4)]);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["retry-after"]).toBeDefined();
    expect(refused.json().error.code).toBe(-32005);
    expect(upstream.calls()).toBe(0);
    expect((await post(target, [call(1), call(2), call(3)])).statusCode).toBe(200);
    expect((await post(target, call(4))).statusCode).toBe(429);
    expect(upstream.calls()).toBe(1);
  });

  it("bounds the upstream with a timeout (504, -32603)", async () => {
    const hanging = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => init.signal!.addEventListener("abort", () => reject(init.signal!.reason)))) as unknown as typeof fetch;
    const target = await build({ fetch: hanging, upstreamTimeoutMs: 50 });
    const response = await post(target, call(1));
    expect(response.statusCode).toBe(504);
    expect(response.json()).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "internal error: the upstream node did not answer within 0.05 s", data: { chain_id: 1 } } });
  });

  it("answers 502 when the upstream's answer is not JSON", async () => {
    const target = await build({ fetch: (async () => new Response("<html>", { status: 200 })) as unknown as typeof fetch });
    const response = await post(target, [call(1), call(2, "eth_sign")]);
    expect(response.statusCode).toBe(502);
    expect(response.json().map((r: { error: { code: number } }) => r.error.code)).toEqual([-32603, -32004]);
  });

  it("moves user:password out of the upstream URL into Basic authorisation", async () => {
    const upstream = echoFetch();
    const target = await build({ fetch: upstream.fetch, chainRpcUrls: { 1: "https://user:s%40cret@node.test/v2/abc" } });
    expect((await post(target, call(1))).json()).toEqual({ jsonrpc: "2.0", id: 1, result: "eth_chainId" });
    expect(upstream.sent[0]!.url).toBe("https://node.test/v2/abc");
    expect((upstream.sent[0]!.init.headers as Record<string, string>).authorization).toBe(`Basic ${Buffer.from("user:s@cret").toString("base64")}`);
  });

  it("does not serve chains whose only upstream is a WebSocket URL", async () => {
    const target = await build({ chainRpcUrls: { 1: "http://node.test", 2: "wss://node.test" } });
    const response = await post(target, call(1), "/v0/rpc/2");
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toMatchObject({ code: -32002, data: { chains: [1] } });
  });

  it("answers a path that is not valid percent-encoding with a JSON-RPC error under /v0/rpc, and a ProblemDetail elsewhere", async () => {
    const target = await build();
    for (const url of ["/v0/rpc/%E0", "/v0/rpc/1/%E0"]) {
      const response = await post(target, call(1), url);
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(response.headers["access-control-allow-origin"]).toBe("*");
      expect(response.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining("not a valid URL") } });
    }
    const elsewhere = await target.inject({ method: "GET", url: "/health/%E0" });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(elsewhere.json()).toMatchObject({ error_code: "GEN-404-001", detail: "The path is not a valid URL." });
  });
});

describe("gatewayKeyAuthenticator (split mode)", () => {
  it("reads current_api_key through the gateway with the Bearer header and maps it to an API-key principal", async () => {
    let seen: GatewayRequest | undefined;
    const authenticate = gatewayKeyAuthenticator(
      gatewayStub((request) => {
        seen = request;
        return { data: { key: { id: "key_9", partition: "server", scopes: ["idsvc.lookup"], meta: { org_id: "org_9", env_id: "env_9" } } } };
      }),
    );
    expect(await authenticate({ authorization: "Bearer k" }, "trace", { clientAddress: "203.0.113.9" })).toEqual({ kind: "api_key", key_id: "key_9", org_id: "org_9", env_id: "env_9", partition: "server", scopes: ["idsvc.lookup"] });
    expect(seen).toMatchObject({ headers: { authorization: "Bearer k" }, credentials: "verify", trace_id: "trace", client_address: "203.0.113.9" });
    expect((seen!.operation as { source: string }).source).toContain("current_api_key");
  });

  it("throws the gateway's catalogue error (401 for unknown or revoked keys)", async () => {
    const authenticate = gatewayKeyAuthenticator(gatewayStub(() => ({ errors: [{ message: "no", extensions: appError("IDS-401-001").extensions }] })));
    await expect(authenticate({ authorization: "Bearer k" }, "t", { clientAddress: "203.0.113.9" })).rejects.toMatchObject({ code: "IDS-401-001", status: 401 });
  });
});
