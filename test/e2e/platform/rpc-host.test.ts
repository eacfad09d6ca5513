import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import pino from "pino";
import { createPublicClient, http, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInternalGraphqlApp } from "../../../gateway/http.ts";
import { MemoryReplayStore } from "../../../lib/auth/replay-store.ts";
import { listen } from "../../../lib/http.ts";
import { HttpGatewayClient } from "../../../rest-adapter/route-kit/gateway-client.ts";
import { buildRpcApp } from "../../../rest-adapter/hosts/rpc/app.ts";
import { startDevnet, type Devnet } from "../../support/devnet.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// The RPC host ({rpc_url}, spec 1 and 5.2): public keys with rpc.invoke, JSON-RPC forwarded to CHAIN_RPC_URLS.
const DEVNET = 900; // tevm's in-process chain behind a loopback JSON-RPC bridge
const FAKE = 910; // a recording fake node: what was (and was not) forwarded
const FAILING = 911; // answers HTTP 503 to everything
const DEAD = 912; // nothing listens there
const WS_ONLY = 913; // a ws:// upstream, which the host does not forward to
const ORG = "org_rpc";
const ENV = "env_rpc";
const BOOTSTRAP = JSON.stringify({
  organisation: { id: ORG, name: "RPC Ltd" },
  environment: { id: ENV, name: "Development" },
  members: [{ sub: "rpc-owner" }],
});

interface Recorded {
  /** every HTTP request body the fake received, parsed */
  requests: unknown[];
  /** every call in them, batches flattened */
  methods: string[];
}

async function startServer(handler: (body: string) => { status?: number; body: string }): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const answer = handler(raw);
    res.statusCode = answer.status ?? 200;
    res.setHeader("content-type", "application/json");
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

/** A node that records every call and answers from a table. */
async function startRecordingNode() {
  const recorded: Recorded = { requests: [], methods: [] };
  const answer = (call: { id: unknown; method: string; params?: unknown[] }) => {
    recorded.methods.push(call.method);
    if (call.method === "eth_call") return { jsonrpc: "2.0", id: call.id, error: { code: 3, message: "execution reverted", data: "0x08c379a0" } };
    const results: Record<string, unknown> = { eth_chainId: toHex(FAKE), eth_blockNumber: "0x10", eth_getBalance: "0xde0b6b3a7640000", eth_sendRawTransaction: `0x${"ab".repeat(32)}` };
    return { jsonrpc: "2.0", id: call.id, result: results[call.method] ?? null };
  };
  const { url, server } = await startServer((raw) => {
    const body = JSON.parse(raw);
    recorded.requests.push(body);
    return { body: JSON.stringify(Array.isArray(body) ? body.map(answer) : answer(body)) };
  });
  return { url, server, recorded };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

let node: Awaited<ReturnType<typeof startRecordingNode>>;
let failing: Awaited<ReturnType<typeof startServer>>;
let devnet: Devnet;
let platform: TestPlatform;
let owner: string;
let publicKey: string;
let serverKey: string;
const logLines: string[] = [];

function chainRpcUrls() {
  return JSON.stringify({ [DEVNET]: devnet.url, [FAKE]: node.url, [FAILING]: failing.url, [DEAD]: "http://127.0.0.1:9", [WS_ONLY]: "ws://127.0.0.1:9" });
}

async function mintKey(p: TestPlatform, scopes: string[], name = "key"): Promise<{ id: string; key: string; _links: Record<string, { href: string }> }> {
  const response = await p.identity(`/v0/organisation/${ORG}/keys`, { method: "POST", bearer: await p.dashboard.sign({ sub: "rpc-owner" }), json: { name, env_id: ENV, scopes } });
  if (response.status !== 201) throw new Error(`mint: ${response.status} ${await response.text()}`);
  return response.json();
}

/** POST to the RPC host; `key` goes in the Authorization header unless `inPath`. */
function rpc(chain: number | string, body: unknown, options: { key?: string; inPath?: string; raw?: string; headers?: Record<string, string>; base?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json", ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  const path = `/v0/rpc/${chain}${options.inPath ? `/${options.inPath}` : ""}`;
  return fetch((options.base ?? platform.urls.rpc) + path, { method: "POST", headers, body: options.raw ?? JSON.stringify(body) });
}

/** A JSON-RPC error object answer (never a ProblemDetail) with the given HTTP status and code. */
async function expectRpcError(response: Response, status: number, code: number, reason?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = await response.json();
  expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code, message: expect.any(String) } });
  expect(body).not.toHaveProperty("error_code");
  expect(body).not.toHaveProperty("type");
  if (reason) expect(body.error.data.reason).toBe(reason);
  return body;
}

beforeAll(async () => {
  [node, failing, devnet] = await Promise.all([startRecordingNode(), startServer(() => ({ status: 503, body: "unavailable" })), startDevnet({ balances: { "0x2000000000000000000000000000000000000002": 12345n } })]);
  const sink = new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) });
  platform = await startTestPlatform({ IDENTITY_BOOTSTRAP: BOOTSTRAP, CHAIN_RPC_URLS: chainRpcUrls() }, { logger: pino({ level: "info" }, sink) });
  owner = await platform.dashboard.sign({ sub: "rpc-owner" });
  publicKey = (await mintKey(platform, ["rpc.invoke"], "browser")).key;
  serverKey = (await mintKey(platform, ["idsvc.lookup"], "backend")).key;
});
afterAll(async () => {
  await platform?.stop();
  await Promise.all([node, failing].filter(Boolean).map((s) => close(s.server)));
  await devnet?.stop();
});

describe("forwarding", () => {
  it("forwards eth_chainId and eth_blockNumber for a public key with rpc.invoke (Bearer header)", async () => {
    const before = node.recorded.methods.length;
    const chainId = await rpc(FAKE, { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }, { key: publicKey });
    expect(chainId.status).toBe(200);
    expect(chainId.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await chainId.json()).toEqual({ jsonrpc: "2.0", id: 1, result: toHex(FAKE) });
    const blockNumber = await rpc(FAKE, { jsonrpc: "2.0", id: "b", method: "eth_blockNumber" }, { key: publicKey });
    expect(await blockNumber.json()).toEqual({ jsonrpc: "2.0", id: "b", result: "0x10" });
    expect(node.recorded.methods.slice(before)).toEqual(["eth_chainId", "eth_blockNumber"]);
  });

  it("accepts the key as a path segment, and keeps it out of the logs", async () => {
    const response = await rpc(FAKE, { jsonrpc: "2.0", id: 7, method: "eth_chainId" }, { inPath: publicKey });
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 7, result: toHex(FAKE) });
    // the same key in both places is fine; different ones are refused
    expect((await rpc(FAKE, { jsonrpc: "2.0", id: 8, method: "eth_chainId" }, { inPath: publicKey, key: publicKey })).status).toBe(200);
    const other = (await mintKey(platform, ["rpc.invoke"], "other")).key;
    await expectRpcError(await rpc(FAKE, { jsonrpc: "2.0", id: 9, method: "eth_chainId" }, { inPath: publicKey, key: other }), 401, -32001, "invalid_key");
    const logged = logLines.join("");
    // the request line names the key by id
    const line = logLines.find((l) => l.includes('"path":"/v0/rpc/910/idsvc_pk_test_…"') && l.includes('"msg":"request"'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ key_id: expect.any(String), org_id: ORG, status: 200 });
    expect(logged).not.toContain(publicKey);
    expect(logged).not.toContain(publicKey.slice(15));
  });

  it("passes the node's own JSON-RPC errors through with HTTP 200", async () => {
    const response = await rpc(FAKE, { jsonrpc: "2.0", id: 2, method: "eth_call", params: [{ to: "0x0000000000000000000000000000000000000001", data: "0x" }, "latest"] }, { key: publicKey });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 2, error: { code: 3, message: "execution reverted", data: "0x08c379a0" } });
  });

  it("answers a mixed batch item by item, in order, ids preserved, forwarding the allowed calls as one upstream batch", async () => {
    const requestsBefore = node.recorded.requests.length;
    const response = await rpc(
      FAKE,
      [
        { jsonrpc: "2.0", id: 1, method: "eth_chainId" },
        { jsonrpc: "2.0", id: "two", method: "eth_sign", params: ["0x0000000000000000000000000000000000000001", "0xdead"] },
        { id: 3, method: "eth_blockNumber" }, // no jsonrpc member
        { jsonrpc: "2.0", id: "x", method: "eth_blockNumber" },
        { jsonrpc: "2.0", method: "eth_blockNumber" }, // notification: run, not answered
        { jsonrpc: "2.0", method: "admin_peers" }, // refused notification: not answered either
        { jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: ["0x0000000000000000000000000000000000000001", "latest"] }, // a repeated id
        { jsonrpc: "2.0", id: null, method: "web3_nope" },
        42,
      ],
      { key: publicKey },
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual([
      { jsonrpc: "2.0", id: 1, result: toHex(FAKE) },
      { jsonrpc: "2.0", id: "two", error: { code: -32004, message: "method not supported: eth_sign", data: { reason: expect.stringContaining("never signs") } } },
      { jsonrpc: "2.0", id: 3, error: { code: -32600, message: expect.stringContaining("jsonrpc") } },
      { jsonrpc: "2.0", id: "x", result: "0x10" },
      { jsonrpc: "2.0", id: 1, result: "0xde0b6b3a7640000" },
      { jsonrpc: "2.0", id: null, error: { code: -32601, message: "method not found: web3_nope", data: expect.any(Object) } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.any(String) } },
    ]);
    // one upstream request: the four allowed calls, under ids of the host's own
    expect(node.recorded.requests.length).toBe(requestsBefore + 1);
    const forwarded = node.recorded.requests.at(-1) as { id: number; method: string }[];
    expect(forwarded.map((c) => c.method)).toEqual(["eth_chainId", "eth_blockNumber", "eth_blockNumber", "eth_getBalance"]);
    expect(forwarded.map((c) => c.id)).toEqual([0, 1, 2, 3]);
  });

  it("never forwards signing, administrative, filter or unknown methods", async () => {
    const before = node.recorded.methods.length;
    const refused = [
      "eth_sign",
      "eth_signTransaction",
      "eth_sendTransaction",
      "eth_signTypedData_v4",
      "eth_accounts",
      "personal_sign",
      "personal_unlockAccount",
      "admin_addPeer",
      "debug_traceTransaction",
      "miner_start",
      "txpool_content",
      "engine_newPayloadV3",
      "eth_newFilter",
      "eth_subscribe",
    ];
    for (const method of refused) {
      const response = await rpc(FAKE, { jsonrpc: "2.0", id: method, method, params: [] }, { key: publicKey });
      expect(response.status).toBe(200);
      expect((await response.json()).error).toMatchObject({ code: -32004, message: `method not supported: ${method}` });
    }
    const unknown = await rpc(FAKE, { jsonrpc: "2.0", id: 1, method: "foo_bar" }, { key: publicKey });
    expect((await unknown.json()).error).toMatchObject({ code: -32601 });
    // in a batch too: nothing allowed, so nothing is sent upstream at all
    const batch = await rpc(FAKE, refused.map((method, i) => ({ jsonrpc: "2.0", id: i, method })), { key: publicKey });
    expect((await batch.json()).map((r: { error: { code: number } }) => r.error.code)).toEqual(refused.map(() => -32004));
    expect(node.recorded.methods.length).toBe(before);
  });

  it("forwards eth_sendRawTransaction (signed by the caller)", async () => {
    const response = await rpc(FAKE, { jsonrpc: "2.0", id: 1, method: "eth_sendRawTransaction", params: ["0x02f8"] }, { key: publicKey });
    expect((await response.json()).result).toBe(`0x${"ab".repeat(32)}`);
    expect(node.recorded.methods.at(-1)).toBe("eth_sendRawTransaction");
  });

  it("serves a real chain to viem: tevm behind a loopback node, key as header, in the path, and batched", async () => {
    const headerClient = createPublicClient({ transport: http(`${platform.urls.rpc}/v0/rpc/${DEVNET}`, { fetchOptions: { headers: { authorization: `Bearer ${publicKey}` } } }) });
    expect(await headerClient.getChainId()).toBe(DEVNET);
    expect(typeof (await headerClient.getBlockNumber())).toBe("bigint");
    const pathClient = createPublicClient({ transport: http(`${platform.urls.rpc}/v0/rpc/${DEVNET}/${publicKey}`, { batch: true }) });
    const [balance, code] = await Promise.all([
      pathClient.getBalance({ address: "0x2000000000000000000000000000000000000002" }),
      pathClient.getCode({ address: "0x2000000000000000000000000000000000000002" }),
    ]);
    expect(balance).toBe(12345n);
    expect(code).toBeUndefined();
    await expect(pathClient.request({ method: "eth_accounts" } as never)).rejects.toMatchObject({ code: -32004 });
  });
});

describe("refusals", () => {
  it("refuses a server key with 403: server keys must never reach a browser", async () => {
    const before = node.recorded.methods.length;
    const body = await expectRpcError(await rpc(FAKE, { jsonrpc: "2.0", id: 1, method: "eth_chainId" }, { key: serverKey }), 403, -32001, "server_key");
    expect(body.error.message).toMatch(/server keys must never be used from the RPC host/);
    await expectRpcError(await rpc(FAKE, { jsonrpc: "2.0", id: 1, method: "eth_chainId" }, { inPath: serverKey }), 403, -32001, "server_key");
    expect(node.recorded.methods.length).toBe(before);
  });

  it("refuses a missing, malformed, unknown or revoked key with 401, and a dashboard session too", async () => {
    const call = { jsonrpc: "2.0", id: 1, method: "eth_chainId" };
    await expectRpcError(await rpc(FAKE, call), 401, -32001, "missing_key");
    await expectRpcError(await rpc(FAKE, call, { headers: { authorization: publicKey } }), 401, -32001, "invalid_key");
    await expectRpcError(await rpc(FAKE, call, { key: `${publicKey.slice(0, -1)}${publicKey.endsWith("A") ? "B" : "A"}` }), 401, -32001, "invalid_key");
    await expectRpcError(await rpc(FAKE, call, { key: owner }), 401, -32001, "invalid_key");
    const { id, key } = await mintKey(platform, ["rpc.invoke"], "to-revoke");
    expect((await rpc(FAKE, call, { key })).status).toBe(200);
    expect((await platform.identity(`/v0/organisation/${ORG}/keys/${id}`, { method: "DELETE", bearer: owner })).status).toBe(200);
    await expectRpcError(await rpc(FAKE, call, { key }), 401, -32001, "invalid_key");
    await expectRpcError(await rpc(FAKE, call, { inPath: key }), 401, -32001, "invalid_key");
  });

  it("answers 404 for a chain not in CHAIN_RPC_URLS (or only reachable over ws)", async () => {
    const call = { jsonrpc: "2.0", id: 1, method: "eth_chainId" };
    for (const chain of [999999, WS_ONLY, "base", 0]) {
      const body = await expectRpcError(await rpc(chain, call, { key: publicKey }), 404, -32002);
      expect(body.error.data.chains).toEqual([DEVNET, FAKE, FAILING, DEAD]);
    }
  });

  it("answers malformed bodies with -32700 / -32600, notifications with 204", async () => {
    await expectRpcError(await rpc(FAKE, null, { key: publicKey, raw: '{"jsonrpc": "2.0", "method": ' }), 400, -32700);
    await expectRpcError(await rpc(FAKE, null, { key: publicKey, raw: "" }), 400, -32700);
    await expectRpcError(await rpc(FAKE, [], { key: publicKey }), 400, -32600);
    await expectRpcError(await rpc(FAKE, "eth_chainId", { key: publicKey }), 400, -32600);
    await expectRpcError(await rpc(FAKE, Array.from({ length: 101 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "eth_chainId" })), { key: publicKey }), 400, -32600);
    const invalid = await rpc(FAKE, { jsonrpc: "1.0", id: 5, method: "eth_chainId" }, { key: publicKey });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ id: 5, error: { code: -32600 } });
    // any media type is read as JSON (text/plain avoids a CORS preflight)
    const plain = await rpc(FAKE, null, { key: publicKey, raw: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }), headers: { "content-type": "text/plain" } });
    expect((await plain.json()).result).toBe(toHex(FAKE));
    const notification = await rpc(FAKE, { jsonrpc: "2.0", method: "eth_blockNumber" }, { key: publicKey });
    expect(notification.status).toBe(204);
    expect(await notification.text()).toBe("");
    await expectRpcError(await rpc(FAKE, null, { key: publicKey, raw: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "x", params: "a".repeat(1_100_000) }) }), 413, -32600);
  });

  it("answers JSON-RPC errors, not ProblemDetails, for wrong methods and paths under /v0/rpc", async () => {
    const get = await fetch(`${platform.urls.rpc}/v0/rpc/${FAKE}`);
    await expectRpcError(get, 405, -32600);
    expect(get.headers.get("allow")).toBe("POST, OPTIONS");
    await expectRpcError(await fetch(`${platform.urls.rpc}/v0/rpc/${FAKE}/a/b`, { method: "POST" }), 404, -32600);
    await expectRpcError(await fetch(`${platform.urls.rpc}/v0/rpc`, { method: "POST" }), 404, -32600);
  });

  it("reports upstream failures as -32603 with HTTP 502, refused items still answered with their own errors", async () => {
    const single = await rpc(FAILING, { jsonrpc: "2.0", id: 1, method: "eth_chainId" }, { key: publicKey });
    expect(single.status).toBe(502);
    expect(await single.json()).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "internal error: the upstream node answered HTTP 503", data: { chain_id: FAILING } } });
    const batch = await rpc(DEAD, [{ jsonrpc: "2.0", id: "a", method: "eth_sign" }, { jsonrpc: "2.0", id: "b", method: "eth_blockNumber" }], { key: publicKey });
    expect(batch.status).toBe(502);
    const body = await batch.json();
    expect(body).toEqual([
      expect.objectContaining({ id: "a", error: expect.objectContaining({ code: -32004 }) }),
      { jsonrpc: "2.0", id: "b", error: { code: -32603, message: "internal error: the upstream node could not be reached", data: { chain_id: DEAD } } },
    ]);
    expect(JSON.stringify(body)).not.toContain("127.0.0.1");
  });

  it("allows browsers from any origin (CORS preflight)", async () => {
    const preflight = await fetch(`${platform.urls.rpc}/v0/rpc/${FAKE}`, {
      method: "OPTIONS",
      headers: { origin: "https://dapp.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("authorization");
    const response = await rpc(FAKE, { jsonrpc: "2.0", id: 1, method: "eth_chainId" }, { key: publicKey, headers: { origin: "https://dapp.example" } });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toContain("retry-after");
    // refusals stay readable by the page, with the trace id
    const refused = await rpc(FAKE, { jsonrpc: "2.0", id: 1, method: "eth_chainId" }, { headers: { origin: "https://dapp.example", "x-request-id": "rpc-trace-1" } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(refused.headers.get("x-request-id")).toBe("rpc-trace-1");
  });
});

describe("documents", () => {
  it("serves /openapi.json (the keys' rpc_docs) and /health", async () => {
    const minted = await mintKey(platform, ["rpc.invoke"], "docs");
    expect(minted._links.rpc_docs!.href).toBe(`${platform.config.publicRpcUrl}/openapi.json`);
    expect(minted._links.rpc_endpoint!.href).toBe(platform.config.publicRpcUrl);
    const response = await fetch(`${platform.urls.rpc}/openapi.json`);
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(["/v0/rpc/{chain_id}", "/v0/rpc/{chain_id}/{key}", "/health"]));
    expect(document.info.description).toContain("Authorization: Bearer idsvc_pk_");
    expect(document.paths["/v0/rpc/{chain_id}"].post.parameters[0].schema.enum).toEqual([DEVNET, FAKE, FAILING, DEAD]);
    expect(document.components.securitySchemes.PublicApiKey).toMatchObject({ type: "http", scheme: "bearer" });
    const health = await fetch(`${platform.urls.rpc}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok" });
  });
});

describe("rate limit", () => {
  let limited: TestPlatform;
  beforeAll(async () => {
    limited = await startTestPlatform({ IDENTITY_BOOTSTRAP: BOOTSTRAP, CHAIN_RPC_URLS: chainRpcUrls(), RATE_LIMITS: JSON.stringify({ rpc: { limit: 3, window_seconds: 60 } }) });
  });
  afterAll(() => limited?.stop());

  it("answers 429 with Retry-After per key once the rpc rule is spent (a batch of N counts N), forwarding nothing", async () => {
    const { key } = await mintKey(limited, ["rpc.invoke"], "limited");
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "eth_blockNumber" });
    const base = limited.urls.rpc;
    expect((await rpc(FAKE, [call(1), call(2)], { key, base })).status).toBe(200);
    expect((await rpc(FAKE, call(3), { key, base })).status).toBe(200);
    const before = node.recorded.methods.length;
    const refused = await rpc(FAKE, call(4), { key, base });
    const body = await expectRpcError(refused, 429, -32005);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(body.error.data.retry_after_seconds).toBe(retryAfter);
    // a batch is refused whole, in the key path form too
    await expectRpcError(await rpc(FAKE, [call(5), call(6)], { inPath: key, base }), 429, -32005);
    expect(node.recorded.methods.length).toBe(before);
    // budgets are per key
    const other = (await mintKey(limited, ["rpc.invoke"], "other")).key;
    expect((await rpc(FAKE, call(7), { key: other, base })).status).toBe(200);
  });
});

describe("split mode: keys verified through the gateway's internal /graphql", () => {
  let app: FastifyInstance;
  let internal: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    const internalSecret = randomBytes(32).toString("hex");
    internal = await buildInternalGraphqlApp({ server: platform.gateway.server, logger: pino({ level: "silent" }), internalSecret, replays: new MemoryReplayStore(), authenticator: platform.gatewayClient.authenticator, limits: platform.config.graphql.limits });
    const gateway = new HttpGatewayClient(await listen(internal, { name: "graphql-internal", port: 0, host: "127.0.0.1", path: "/graphql" }), internalSecret);
    app = await buildRpcApp({
      gateway,
      logger: pino({ level: "silent" }),
      baseUrl: "http://rpc.test",
      docsUrl: platform.config.docsUrl,
      chainRpcUrls: { [FAKE]: node.url },
      rateLimit: { limit: 100, windowMs: 60_000 },
    });
    base = await listen(app, { name: "rpc-split", port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await app?.close();
    await internal?.close();
  });

  it("accepts public keys, refuses server keys (403) and revoked or unknown ones (401)", async () => {
    const call = { jsonrpc: "2.0", id: 1, method: "eth_chainId" };
    expect(await (await rpc(FAKE, call, { key: publicKey, base })).json()).toEqual({ jsonrpc: "2.0", id: 1, result: toHex(FAKE) });
    await expectRpcError(await rpc(FAKE, call, { key: serverKey, base }), 403, -32001, "server_key");
    const { id, key } = await mintKey(platform, ["rpc.invoke"], "split-revoke");
    expect((await rpc(FAKE, call, { inPath: key, base })).status).toBe(200);
    await platform.identity(`/v0/organisation/${ORG}/keys/${id}`, { method: "DELETE", bearer: owner });
    await expectRpcError(await rpc(FAKE, call, { inPath: key, base }), 401, -32001, "invalid_key");
    expect((await fetch(`${base}/health`)).status).toBe(200);
  });
});
