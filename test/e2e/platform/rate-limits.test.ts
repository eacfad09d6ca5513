import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../../../lib/auth/api-key.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// One rate-limiting mechanism on every surface (spec 8): per user and per API key once a
// credential verifies, per client address until then, failed verifications per address and per
// credential (auth_failure, auth_failure_address); 429 with Retry-After and the surface's error
// shape; /health never; a credential that verifies never refused for its address's failures.
const LIMITS = JSON.stringify({
  user: { limit: 3, window_seconds: 60 },
  ip: { limit: 2, window_seconds: 60 },
  api_key: { limit: 2, window_seconds: 60 },
  auth_failure: { limit: 3, window_seconds: 60 },
  auth_failure_address: { limit: 3, window_seconds: 60 },
  auth_verification: { limit: 3, window_seconds: 60 },
});
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops) await stop();
});

async function platformWith(env: Record<string, string> = {}): Promise<TestPlatform> {
  const platform = await startTestPlatform({ RATE_LIMITS: LIMITS, ...env });
  stops.push(() => platform.stop());
  return platform;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json(): any;
}

/**
 * HTTP from a chosen loopback source address (127.0.0.x), so each test is its own client and
 * spends its own per-address budgets on the one platform.
 */
function client(address: string) {
  return (url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const headers = { ...init.headers, ...(init.body !== undefined && { "content-type": "application/json" }) };
      const req = httpRequest(url, { method: init.method ?? "GET", headers, localAddress: address, agent: false }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, json: () => JSON.parse(text) }));
      });
      req.on("error", reject);
      req.end(init.body === undefined ? undefined : JSON.stringify(init.body));
    });
}

function expect429(response: Answer | { status: number }, code = "GEN-429-001") {
  expect(response.status).toBe(429);
  if ("json" in response) {
    expect(Number(response.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(response.json()).toMatchObject({ status: 429, error_code: code });
  }
}

const graphql = (query: string) => ({ method: "POST", body: { query } });

describe("rate limits", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await platformWith({ IDENTITY_BOOTSTRAP: JSON.stringify({ organisation: { id: "org_rl", name: "RL" }, environment: { id: "env_rl", name: "Dev" }, members: [{ sub: "rl-owner" }] }) });
  });

  it("count per user on the platform host (JWT), leaving other users alone", async () => {
    const { jwt } = await platform.createUser();
    // the registration counted for the subject, before the user existed; from now on the user counts
    for (let i = 0; i < 3; i++) expect((await platform.api("/v0/user/me", { jwt })).status).toBe(200);
    const limited = await platform.api("/v0/user/me", { jwt });
    expect(limited.status).toBe(429);
    expect((await limited.json()).type).toBe(`${platform.config.publicBaseUrl}/errors/gen-429-001`);
    const other = await platform.createUser();
    expect((await platform.api("/v0/user/me", { jwt: other.jwt })).status).toBe(200);
  });

  it("count an agent token's requests against its user's budget as well as its own: tokens never multiply the user's limit (issue 26)", async () => {
    const { jwt } = await platform.createUser();
    const issued = await platform.api("/v0/agent/tokens", { method: "POST", jwt, json: { name: "rl", scopes: ["read:transactions"] } });
    expect(issued.status).toBe(201);
    const { token } = await issued.json();
    const asAgent = () => fetch(`${platform.urls.platform}/v0/transactions`, { headers: { "x-platform-token": token } });
    // the user's budget is 3: the issuing, the agent's read and the user's read spend it together
    expect((await asAgent()).status).toBe(200);
    expect((await platform.api("/v0/user/me", { jwt })).status).toBe(200);
    const limited = await asAgent();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await platform.api("/v0/user/me", { jwt })).status).toBe(429);
  });

  it("count requests without a credential per address, on REST and GraphQL alike", async () => {
    const from = client("127.0.0.10");
    expect((await from(`${platform.urls.platform}/.well-known/jwks.json`)).status).toBe(200);
    expect((await from(platform.urls.graphql, graphql("{ health { status } }"))).status).toBe(200);
    expect429(await from(`${platform.urls.platform}/.well-known/jwks.json`));
    expect((await from(platform.urls.graphql, graphql("{ health { status } }"))).status).toBe(429);
    // another address has its own budget
    expect((await client("127.0.0.11")(`${platform.urls.platform}/.well-known/jwks.json`)).status).toBe(200);
  });

  it("never limit /health and the documents, on any listener, even once the address has spent its budget", async () => {
    const from = client("127.0.0.12");
    for (let i = 0; i < 2; i++) expect((await from(`${platform.urls.identity}/.well-known/jwks.json`)).status).toBe(200);
    expect429(await from(`${platform.urls.identity}/.well-known/jwks.json`));
    for (let i = 0; i < 5; i++) {
      for (const base of [platform.urls.platform, platform.urls.identity, platform.urls.rpc]) expect((await from(`${base}/health`)).status).toBe(200);
      expect((await from(platform.urls.graphql.replace(/\/graphql$/, "/health"))).status).toBe(200);
      for (const path of ["/openapi.json", "/docs", "/docs/assets/reference.js", "/errors/gen-429-001", "/docs/errors/rate_limited"]) expect((await from(`${platform.urls.identity}${path}`)).status, path).toBe(200);
    }
  });

  it("count a credential-free route per address whatever credential headers come with it (x-platform-jwt: x)", async () => {
    const from = client("127.0.0.13");
    const nonce = () => from(`${platform.urls.platform}/v0/auth/siwe/nonce`, { method: "POST", headers: { "x-platform-jwt": "x", "x-platform-pat": "plat_pat_x" } });
    // 503: sign-in with Ethereum is not configured here, but the request was counted before that
    for (let i = 0; i < 2; i++) expect((await nonce()).status).toBe(503);
    expect429(await nonce());
    expect429(await from(`${platform.urls.platform}/v0/auth/siwe/verify`, { method: "POST", headers: { "x-platform-jwt": "x" }, body: { message: "m", signature: "0x00" } }));
  });

  it("count failed verifications per address and slow them down: bad PATs, then bad JWTs, answer 429; a valid credential still passes", async () => {
    const from = client("127.0.0.14");
    for (let i = 0; i < 3; i++) expect((await from(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-pat": `plat_pat_bad${i}` } })).status).toBe(401);
    expect429(await from(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-pat": "plat_pat_bad9" } }));
    // the address is slowed down for failing attempts only: a credential that verifies passes (users behind one NAT)
    await platform.createUser({ sub: "rl-nat-user" });
    const jwt = await platform.issuer.sign({ sub: "rl-nat-user" });
    expect((await from(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-jwt": jwt } })).status).toBe(200);
    // a genuine token past its exp is the refresh path (spec 5.1.4): a plain 401, even now
    const expired = await platform.issuer.sign({ sub: "rl-expired", exp: Math.floor(Date.now() / 1000) - 60 });
    const refresh = await from(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-jwt": expired } });
    expect(refresh.status).toBe(401);
    expect(refresh.json()).toMatchObject({ error_code: "USR-401-001" });
    // the verifications the address may still cause are bounded (auth_verification 3: bad9, the new JWT, the expired one);
    // now a credential not known good is refused before verifying, while the JWT that verified passes
    expect429(await from(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-pat": "plat_pat_bad10" } }));
    expect((await from(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-jwt": jwt } })).status).toBe(200);
    // /graphql counts the same way
    const jwts = client("127.0.0.15");
    for (let i = 0; i < 3; i++) expect((await jwts(platform.urls.graphql, { ...graphql("{ me { id } }"), headers: { "x-platform-jwt": `not.a.jwt${i}` } })).status).toBe(401);
    const limited = await jwts(platform.urls.graphql, { ...graphql("{ me { id } }"), headers: { "x-platform-jwt": "not.a.jwt9" } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(limited.json().errors[0].extensions).toMatchObject({ code: "GEN-429-001" });
    // and the optional credential of GET /v0/cli/config too
    const cli = client("127.0.0.16");
    for (let i = 0; i < 3; i++) expect((await cli(`${platform.urls.platform}/v0/cli/config`, { headers: { "x-platform-pat": `plat_pat_cli${i}` } })).status).toBe(200);
    expect429(await cli(`${platform.urls.platform}/v0/cli/config`, { headers: { "x-platform-pat": "plat_pat_cli9" } }));
  });

  it("count no genuine expired token: an expiry wave behind one address spends none of its failure budget", async () => {
    const from = client("127.0.0.24");
    const past = Math.floor(Date.now() / 1000) - 60;
    for (let i = 0; i < 8; i++) {
      const expired = await platform.issuer.sign({ sub: `wave-${i}`, exp: past });
      expect((await from(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-jwt": expired } })).status).toBe(401);
    }
    // the address has its whole failure budget: the next failures are 401s, not 429s
    for (let i = 0; i < 3; i++) expect((await from(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-jwt": `not.a.jwt${i}` } })).status).toBe(401);
    expect429(await from(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-jwt": "not.a.jwt9" } }));
  });

  it("count failed verifications per presented credential, from any address", async () => {
    const stolen = "plat_pat_guessed0000000000000000000000000000000000";
    for (const address of ["127.0.0.17", "127.0.0.18", "127.0.0.19"])
      expect((await client(address)(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-pat": stolen } })).status).toBe(401);
    const fresh = client("127.0.0.20");
    expect429(await fresh(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-pat": stolen } }));
    // that address is not itself slowed down: another credential is still verified
    expect((await fresh(`${platform.urls.platform}/v0/user/me`, { headers: { "x-platform-pat": "plat_pat_other" } })).status).toBe(401);
  });

  it("count failed API keys on the identity host per address, and verified ones per key in its error style", async () => {
    const from = client("127.0.0.21");
    for (let i = 0; i < 3; i++) expect((await from(`${platform.urls.identity}/v0/idsvc/key`, { headers: { authorization: `Bearer idsvc_sk_test_nope${i}` } })).status).toBe(401);
    const slowed = await from(`${platform.urls.identity}/v0/idsvc/key`, { headers: { authorization: "Bearer idsvc_sk_test_nope9" } });
    expect(slowed.status).toBe(429);
    expect(slowed.json()).toMatchObject({ type: `${platform.config.docsUrl}/errors/too_many_requests` });

    const owner = await platform.dashboard.sign({ sub: "rl-owner" });
    const { key } = await (await platform.identity("/v0/organisation/org_rl/keys", { method: "POST", bearer: owner, json: { name: "k", env_id: "env_rl", scopes: ["idsvc.lookup"] } })).json();
    expect((await platform.identity("/v0/idsvc/key", { bearer: key })).status).toBe(200);
    expect((await platform.identity("/v0/idsvc/key", { bearer: key })).status).toBe(200);
    const limited = await platform.identity("/v0/idsvc/key", { bearer: key });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ type: `${platform.config.docsUrl}/errors/too_many_requests`, documentation: `${platform.config.docsUrl}/errors/GEN-429-001` });
  });

  it("answer PINT-429-001 on the PINT exchange whichever limit refuses it (spec 7.3): failed keys per address here", async () => {
    const from = client("127.0.0.23");
    const exchange = (key: string) => from(`${platform.urls.identity}/v0/idsvc/token/pint`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: {} });
    for (let i = 0; i < 3; i++) expect((await exchange(generateApiKey("server", "test"))).status).toBe(401);
    const slowed = await exchange(generateApiKey("server", "test"));
    expect429(slowed, "PINT-429-001");
    expect(slowed.json()).toMatchObject({ type: `${platform.config.docsUrl}/errors/rate_limited`, documentation: `${platform.config.docsUrl}/errors/PINT-429-001` });
    // other routes of that address keep the generic code
    expect429(await from(`${platform.urls.identity}/v0/idsvc/key`, { headers: { authorization: `Bearer ${generateApiKey("server", "test")}` } }));
  });

  it("count a /graphql mutation per root field against a verified user's budget too, not only per address", async () => {
    const { jwt } = await platform.createUser();
    const as = (query: string) => fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt }, body: JSON.stringify({ query }) });
    const aliased = (n: number) => `mutation { ${Array.from({ length: n }, (_, i) => `a${i}: siwe_nonce { nonce }`).join(" ")} }`;
    // the user budget is 3: four root fields are refused before any runs
    const refused = await as(aliased(4));
    expect(refused.status).toBe(429);
    expect((await refused.json()).errors[0].extensions).toMatchObject({ code: "GEN-429-001" });
    // three fit (each then fails on its own: sign-in with Ethereum is not configured here) and spend it all
    expect((await as(aliased(3))).status).toBe(200);
    expect((await as("{ me { id } }")).status).toBe(429);
  });

  it("count failed keys on the RPC host per address, answered as JSON-RPC", async () => {
    const from = client("127.0.0.22");
    const rpc = (key: string) => from(`${platform.urls.rpc}/v0/rpc/1`, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: { jsonrpc: "2.0", id: 1, method: "eth_chainId" } });
    // well-formed keys that do not exist: each is verified, and fails
    for (let i = 0; i < 3; i++) expect((await rpc(generateApiKey("public", "test"))).status).toBe(401);
    const slowed = await rpc(generateApiKey("public", "test"));
    expect(slowed.status).toBe(429);
    expect(slowed.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32005 } });
  });
});

describe("mutations on /graphql", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await platformWith({ AUTH_PROVIDERS: JSON.stringify([{ name: "siwe", issuer: "https://siwe.rate-limits.test", audience: "rl" }]) });
  });

  const nonces = async () => Number((await platform.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM users.siwe_nonces`))[0]!.n);
  const aliased = (n: number) => `mutation { ${Array.from({ length: n }, (_, i) => `a${i}: siwe_nonce { nonce }`).join(" ")} }`;

  it("count once per root field (aliases apart): more fields than the budget left is refused before any runs", async () => {
    const from = client("127.0.0.30");
    const before = await nonces();
    const refused = await from(platform.urls.graphql, graphql(aliased(3)));
    expect(refused.status).toBe(429);
    expect(refused.json().errors[0].extensions).toMatchObject({ code: "GEN-429-001" });
    expect(await nonces()).toBe(before);
    // two fields fit the budget of two, and spend it
    const both = await from(platform.urls.graphql, graphql(aliased(2)));
    expect(both.status).toBe(200);
    expect(Object.keys(both.json().data)).toEqual(["a0", "a1"]);
    expect(await nonces()).toBe(before + 2);
    expect((await from(platform.urls.graphql, graphql("{ health { status } }"))).status).toBe(429);
  });

  it("count a query once, however many fields it has", async () => {
    const from = client("127.0.0.31");
    expect((await from(platform.urls.graphql, graphql("{ a: health { status } b: health { status } c: health { status } }"))).status).toBe(200);
    expect((await from(platform.urls.graphql, graphql("{ health { status } }"))).status).toBe(200);
    expect((await from(platform.urls.graphql, graphql("{ health { status } }"))).status).toBe(429);
  });
});

// instances share their budgets through PostgreSQL (RATE_LIMIT_STORE defaults to postgres with DATABASE_URL)
describe.skipIf(!onPostgres)("on PostgreSQL", () => {
  it("are shared by every instance, within one allowance (10% of the limit, at least 1) per other instance", async () => {
    const databaseUrl = (await freshDatabaseUrl())!;
    const a = await platformWith({ DATABASE_URL: databaseUrl });
    const b = await platformWith({ DATABASE_URL: databaseUrl });
    expect(a.config.rateLimits.store).toBe("postgres");
    const from = client("127.0.0.40");
    // the address's budget of 2 is spent across both instances: at most 2 + 1 admitted in all
    const statuses = [];
    for (const base of [a.urls.platform, b.urls.platform, b.urls.platform, a.urls.platform, b.urls.platform, a.urls.platform]) statuses.push((await from(`${base}/.well-known/jwks.json`)).status);
    const admitted = statuses.filter((s) => s === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(2);
    expect(admitted).toBeLessThanOrEqual(3);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });
});
