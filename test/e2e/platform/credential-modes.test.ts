// One authentication path (issue 8): the same credential cases answer the same, and spend the
// same budgets, in one process (the adapter's in-process gateway client) and in split mode (the
// adapter signing each route's credential mode for the gateway's internal listener over HTTP).
// Split mode runs in this test process: every service of server/split.ts on its own loopback
// port, each subgraph on its own database, real HTTP between them.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../../../lib/auth/api-key.ts";
import { generatePersonalAccessToken } from "../../../lib/auth/personal-access-token.ts";
import { loadConfig } from "../../../lib/config.ts";
import { SUBGRAPH_NAMES, SUBGRAPHS } from "../../../lib/graphql/subgraph-registry.ts";
import { startService, type RunningService } from "../../../server/split.ts";
import { TestIssuer } from "../../support/jwt-issuer.ts";
import { freePort, startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { newAccount, registrationBody } from "../../support/registration.ts";
import { freshDatabaseUrl } from "../../support/test-database.ts";

const ORG = "org_modes";
const ENV = "env_modes";
const OWNER = "modes-owner";
const CHAIN = 920;
/** small, so the budget case reaches it; RPC calls must not spend it */
const API_KEY_LIMIT = 3;

/** The base URLs of one run mode, and the credentials made through it. */
interface Mode {
  urls: { platform: string; identity: string; rpc: string; graphql: string };
  jwt: string;
  pat: string;
  serverKey: string;
  publicKey: string;
  dashboard: string;
}

interface Case {
  name: string;
  host: keyof Mode["urls"];
  path: string;
  method?: string;
  headers?: (mode: Mode) => Record<string, string>;
  body?: unknown;
  expect: { status: number; code?: string };
}

const garbageJwt = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln";
const unknownPat = generatePersonalAccessToken();
const unknownKey = generateApiKey("public", "test");
const rpcCall = { jsonrpc: "2.0", id: 1, method: "eth_chainId" };

const CASES: Case[] = [
  { name: "no credential on a required route", host: "platform", path: "/v0/user/me", expect: { status: 401, code: "USR-401-001" } },
  { name: "a bad JWT on a required route", host: "platform", path: "/v0/user/me", headers: () => ({ "x-platform-jwt": garbageJwt }), expect: { status: 401, code: "USR-401-001" } },
  { name: "an unknown PAT on a required route", host: "platform", path: "/v0/user/me", headers: () => ({ "x-platform-pat": unknownPat }), expect: { status: 401, code: "USR-401-004" } },
  { name: "a valid JWT", host: "platform", path: "/v0/user/me", headers: (m) => ({ "x-platform-jwt": m.jwt }), expect: { status: 200 } },
  { name: "a valid PAT", host: "platform", path: "/v0/user/me", headers: (m) => ({ "x-platform-pat": m.pat }), expect: { status: 200 } },
  { name: "a PAT on a JWT-only route", host: "platform", path: "/v0/user/me/personal-access-tokens", headers: (m) => ({ "x-platform-pat": m.pat }), expect: { status: 403, code: "USR-403-001" } },
  { name: "x-platform-token, next to a valid JWT", host: "platform", path: "/v0/user/me", headers: (m) => ({ "x-platform-jwt": m.jwt, "x-platform-token": "agent" }), expect: { status: 401, code: "USR-401-005" } },
  { name: "optional route without a credential", host: "platform", path: "/v0/cli/config", expect: { status: 200 } },
  { name: "optional route with a bad JWT", host: "platform", path: "/v0/cli/config", headers: () => ({ "x-platform-jwt": garbageJwt }), expect: { status: 200 } },
  { name: "optional route with an unknown PAT", host: "platform", path: "/v0/cli/config", headers: () => ({ "x-platform-pat": unknownPat }), expect: { status: 200 } },
  { name: "optional route with a valid PAT", host: "platform", path: "/v0/cli/config", headers: (m) => ({ "x-platform-pat": m.pat }), expect: { status: 200 } },
  { name: "a credential-free route ignores a bad credential", host: "platform", path: "/health", headers: () => ({ "x-platform-jwt": garbageJwt }), expect: { status: 200 } },
  { name: "an API key on the identity host", host: "identity", path: "/v0/idsvc/key", headers: (m) => ({ authorization: `Bearer ${m.serverKey}` }), expect: { status: 200 } },
  { name: "an unknown API key on the identity host", host: "identity", path: "/v0/idsvc/key", headers: () => ({ authorization: `Bearer ${unknownKey}` }), expect: { status: 401, code: "IDS-401-001" } },
  { name: "a dashboard session on the identity host", host: "identity", path: `/v0/organisation/${ORG}`, headers: (m) => ({ authorization: `Bearer ${m.dashboard}` }), expect: { status: 200 } },
  { name: "a bad dashboard session on the identity host", host: "identity", path: `/v0/organisation/${ORG}`, headers: () => ({ authorization: `Bearer ${garbageJwt}` }), expect: { status: 401, code: "IDS-401-002" } },
  { name: "a bad JWT on the public /graphql", host: "graphql", path: "", method: "POST", body: { query: "{ me { id } }" }, headers: () => ({ "x-platform-jwt": garbageJwt }), expect: { status: 401, code: "USR-401-001" } },
  { name: "a valid JWT on the public /graphql", host: "graphql", path: "", method: "POST", body: { query: "{ me { id } }" }, headers: (m) => ({ "x-platform-jwt": m.jwt }), expect: { status: 200 } },
  { name: "an RPC host key", host: "rpc", path: `/v0/rpc/${CHAIN}`, method: "POST", body: rpcCall, headers: (m) => ({ authorization: `Bearer ${m.publicKey}` }), expect: { status: 200 } },
  { name: "an unknown RPC host key", host: "rpc", path: `/v0/rpc/${CHAIN}`, method: "POST", body: rpcCall, headers: () => ({ authorization: `Bearer ${unknownKey}` }), expect: { status: 401, code: "-32001 invalid_key" } },
  { name: "a server-partition key on the RPC host", host: "rpc", path: `/v0/rpc/${CHAIN}`, method: "POST", body: rpcCall, headers: (m) => ({ authorization: `Bearer ${m.serverKey}` }), expect: { status: 403, code: "-32001 server_key" } },
];

/** Status and code of an answer, whatever its shape: ProblemDetail, GraphQL errors or a JSON-RPC error object. */
async function outcome(response: Response): Promise<{ status: number; code?: string }> {
  const body = (await response.json().catch(() => ({}))) as Record<string, any>;
  const code = body.error_code ?? body.errors?.[0]?.extensions?.error_code ?? (body.error && `${body.error.code} ${body.error.data?.reason}`);
  return { status: response.status, ...(code !== undefined && { code }) };
}

function send(mode: Mode, c: Pick<Case, "host" | "path" | "method" | "headers" | "body">): Promise<Response> {
  const headers: Record<string, string> = { ...c.headers?.(mode), ...(c.body !== undefined && { "content-type": "application/json" }) };
  return fetch(mode.urls[c.host] + c.path, { method: c.method ?? "GET", headers, ...(c.body !== undefined && { body: JSON.stringify(c.body) }) });
}

let issuer: TestIssuer;
let dashboard: TestIssuer;
let node: Server;
let single: TestPlatform;
const services: RunningService[] = [];
const modes: Record<"one process" | "split mode", Mode> = {} as never;

async function startNode(): Promise<{ server: Server; url: string }> {
  const server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const call = JSON.parse(raw);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, result: `0x${CHAIN.toString(16)}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/** A user with a PAT, a server and a public key and a dashboard session, made through the mode's own REST API. */
async function credentials(urls: Mode["urls"]): Promise<Mode> {
  const post = async (url: string, headers: Record<string, string>, json: unknown) => {
    const response = await fetch(url, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(json) });
    const body = await response.json();
    if (response.status !== 201) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
    return body;
  };
  const jwt = await issuer.sign({ sub: `modes-${randomBytes(4).toString("hex")}` });
  await post(`${urls.platform}/v0/user/`, { "x-platform-jwt": jwt }, await registrationBody(jwt, { account: newAccount(), chain_id: 8453 }));
  const { token: pat } = await post(`${urls.platform}/v0/user/me/personal-access-tokens`, { "x-platform-jwt": jwt }, { name: "cli", scopes: ["read"] });
  const session = await dashboard.sign({ sub: OWNER });
  const mint = async (scopes: string[]) => (await post(`${urls.identity}/v0/organisation/${ORG}/keys`, { authorization: `Bearer ${session}` }, { name: "modes", env_id: ENV, scopes })).key as string;
  return { urls, jwt, pat, serverKey: await mint(["idsvc.lookup"]), publicKey: await mint(["rpc.invoke"]), dashboard: session };
}

/** server/split.ts's services in this process, on free loopback ports. */
async function startSplit(env: Record<string, string>): Promise<Mode["urls"]> {
  const base = { ...env, INTERNAL_SECRET: randomBytes(32).toString("hex"), HOST: "127.0.0.1" };
  const subgraphUrls: Record<string, string> = {};
  for (const name of SUBGRAPH_NAMES) {
    const databaseUrl = await freshDatabaseUrl();
    const service = await startService(name, loadConfig({ ...base, ...(databaseUrl && { DATABASE_URL: databaseUrl }) }), { SUBGRAPH_PORT: String(await freePort()) });
    services.push(service);
    subgraphUrls[SUBGRAPHS.find((s) => s.name === name)!.urlVariable] = service.urls[0]!;
  }
  const [graphqlPort, internalPort, port, identityPort, rpcPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const gateway = await startService("gateway", loadConfig({ ...base, ...subgraphUrls, GRAPHQL_PORT: String(graphqlPort), GATEWAY_INTERNAL_PORT: String(internalPort) }));
  services.push(gateway);
  const adapter = await startService(
    "adapter",
    loadConfig({ ...base, PORT: String(port), IDENTITY_PORT: String(identityPort), RPC_PORT: String(rpcPort), GATEWAY_URL: gateway.urls[1]!, PUBLIC_BASE_URL: `http://127.0.0.1:${port}` }),
  );
  services.push(adapter);
  const [platform, identity, rpc] = adapter.urls as [string, string, string];
  return { platform, identity, rpc, graphql: gateway.urls[0]! };
}

beforeAll(async () => {
  [issuer, dashboard] = await Promise.all([TestIssuer.start(), TestIssuer.start()]);
  const chain = await startNode();
  node = chain.server;
  const env = {
    DATA_DIR: "memory://",
    LOG_LEVEL: "silent",
    SAFE_DEPLOY_DELAY_MS: "0",
    JWKS_ALLOW_LOOPBACK_HTTP: "true",
    AUTH_PROVIDERS: JSON.stringify([{ name: "provider_a", issuer: issuer.issuer, jwks_uri: issuer.jwksUri }]),
    DASHBOARD_AUTH: JSON.stringify([{ name: "dashboard", issuer: dashboard.issuer, jwks_uri: dashboard.jwksUri }]),
    IDENTITY_BOOTSTRAP: JSON.stringify({ organisation: { id: ORG, name: "Modes Ltd" }, environment: { id: ENV, name: "Development" }, members: [{ sub: OWNER }] }),
    CHAIN_RPC_URLS: JSON.stringify({ [CHAIN]: chain.url }),
    RATE_LIMITS: JSON.stringify({ api_key: { limit: API_KEY_LIMIT }, user: { limit: 1_000_000 }, ip: { limit: 1_000_000 }, auth_failure: { limit: 1_000_000 }, rpc: { limit: 1_000_000 } }),
  };
  single = await startTestPlatform(env);
  modes["one process"] = await credentials({ platform: single.urls.platform, identity: single.urls.identity, rpc: single.urls.rpc, graphql: single.urls.graphql });
  modes["split mode"] = await credentials(await startSplit(env));
}, 300_000);

afterAll(async () => {
  for (const service of services.reverse()) await service.stop();
  await single?.stop();
  await new Promise((resolve) => node?.close(resolve));
  await Promise.all([issuer?.stop(), dashboard?.stop()]);
});

describe("the same credential cases in one process and in split mode", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const answers = { "one process": await outcome(await send(modes["one process"], c)), "split mode": await outcome(await send(modes["split mode"], c)) };
      expect(answers).toEqual({ "one process": c.expect, "split mode": c.expect });
    });
  }

  it("RPC host calls spend the key's `rpc` budget only, never its `api_key` budget, in both modes", async () => {
    const answers: Record<string, { status: number; code?: string }[]> = {};
    for (const [name, mode] of Object.entries(modes)) {
      // a fresh key: more RPC calls than its api_key budget holds, then that budget, still whole
      const { publicKey } = await credentials(mode.urls);
      const key = { ...mode, publicKey };
      for (let i = 0; i <= API_KEY_LIMIT; i++) expect((await send(key, CASES.find((c) => c.name === "an RPC host key")!)).status).toBe(200);
      const identity = { host: "identity", path: "/v0/idsvc/key", headers: () => ({ authorization: `Bearer ${publicKey}` }) } as const;
      answers[name] = [];
      for (let i = 0; i <= API_KEY_LIMIT; i++) answers[name].push(await outcome(await send(key, identity)));
    }
    const expected = [...Array.from({ length: API_KEY_LIMIT }, () => ({ status: 200 })), { status: 429, code: "GEN-429-001" }];
    expect(answers).toEqual({ "one process": expected, "split mode": expected });
  });
});
