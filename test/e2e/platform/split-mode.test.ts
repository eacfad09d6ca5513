import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRINCIPAL_HEADER, signPrincipal, type PrincipalAudience } from "../../../lib/auth/internal-principal.ts";
import type { CredentialMode } from "../../../lib/auth/credential-mode.ts";
import { ADAPTER_PRINCIPAL, type Principal } from "../../../lib/auth/principal.ts";
import { SUBGRAPH_NAMES, SUBGRAPHS } from "../../../lib/graphql/subgraph-registry.ts";
import { TestIssuer } from "../../support/jwt-issuer.ts";
import { freePort } from "../../support/platform.ts";
import { registrationBody } from "../../support/registration.ts";
import { freshDatabaseUrl } from "../../support/test-database.ts";
import { startOtlpCollector } from "../../support/otlp-collector.ts";
import { ServiceProcesses } from "../../support/service-processes.ts";

let services: ServiceProcesses;
let issuer: TestIssuer;
let adapterUrl: string;
let gatewayUrl: string;
let gatewayInternalUrl: string;
let usersUrl: string;
let identityUrl: string;
const internalSecret = randomBytes(32).toString("hex");
/** every service exports its spans here, in batches every 200 ms */
let collector: Awaited<ReturnType<typeof startOtlpCollector>>;
/** the gateway answers failing credentials 429 after this many failed verifications per client address (auth_failure_address) */
const GATEWAY_AUTH_FAILURES = 5;

/** A POST as one of our services sends it: the principal signed for `audience` over this very body (for the gateway: with the client's address and a credential mode). */
function signedPost(principal: Principal, audience: PrincipalAudience, body: string, clientAddress?: string, credentials?: CredentialMode): RequestInit {
  const header = signPrincipal(principal, { secret: internalSecret, audience, body, ...(clientAddress !== undefined && { clientAddress }), ...(credentials && { credentials }) });
  return { method: "POST", headers: { "content-type": "application/json", [PRINCIPAL_HEADER]: header }, body };
}


/** The split topology of docker-compose.yml as plain processes: four subgraphs, the gateway, the adapter. */
beforeAll(async () => {
  collector = await startOtlpCollector();
  // six processes start at once (four migrating their databases): slow on a busy machine, hence the default 150 s each
  services = new ServiceProcesses(internalSecret, { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: "200" });
  issuer = await TestIssuer.start();
  const authProviders = JSON.stringify([{ name: "provider_a", issuer: issuer.issuer, jwks_uri: issuer.jwksUri }]);
  const subgraphPorts: Record<string, number> = {};
  for (const name of SUBGRAPH_NAMES) subgraphPorts[name] = await freePort();
  // subgraphs reach their peers (finance → users, identity → users, finance and agents) over signed HTTP too
  const subgraphUrls = Object.fromEntries(SUBGRAPHS.map(({ name, urlVariable }) => [urlVariable, `http://127.0.0.1:${subgraphPorts[name]}/graphql`]));
  const [port, identityPort, rpcPort] = [await freePort(), await freePort(), await freePort()];
  adapterUrl = `http://127.0.0.1:${port}`;
  for (const name of SUBGRAPH_NAMES) {
    // each subgraph owns its data: its own database (PostgreSQL in e2e-postgres, in-memory PGlite otherwise)
    const databaseUrl = await freshDatabaseUrl();
    services.start(name, {
      SUBGRAPH_PORT: String(subgraphPorts[name]),
      DATA_DIR: "memory://",
      SAFE_DEPLOY_DELAY_MS: "0",
      // as in docker-compose.yml: the public address is not reachable from inside; the sandbox providers' webhooks take the internal one
      PUBLIC_BASE_URL: "http://public.invalid",
      SANDBOX_WEBHOOK_BASE_URL: adapterUrl,
      ...subgraphUrls,
      ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    });
  }
  usersUrl = `http://127.0.0.1:${subgraphPorts.users}/graphql`;
  identityUrl = `http://127.0.0.1:${subgraphPorts.identity}/graphql`;
  const [graphqlPort, gatewayInternalPort] = [await freePort(), await freePort()];
  gatewayUrl = `http://127.0.0.1:${graphqlPort}/graphql`;
  gatewayInternalUrl = `http://127.0.0.1:${gatewayInternalPort}/graphql`;
  services.start("gateway", {
    GRAPHQL_PORT: String(graphqlPort),
    GATEWAY_INTERNAL_PORT: String(gatewayInternalPort),
    RATE_LIMITS: JSON.stringify({ auth_failure_address: { limit: GATEWAY_AUTH_FAILURES } }),
    AUTH_PROVIDERS: authProviders,
    ...subgraphUrls,
  });
  services.start("adapter", { PORT: String(port), IDENTITY_PORT: String(identityPort), RPC_PORT: String(rpcPort), GATEWAY_URL: gatewayInternalUrl, PUBLIC_BASE_URL: adapterUrl, TRUST_PROXY: "loopback" });
  for (const [name, port] of Object.entries(subgraphPorts)) await services.waitFor(`http://127.0.0.1:${port}/health`).catch((e) => Promise.reject(new Error(`${name}: ${e.message}`)));
  await services.waitFor(gatewayUrl.replace("/graphql", "/health"));
  await services.waitFor(gatewayInternalUrl.replace("/graphql", "/health"));
  await services.waitFor(`${adapterUrl}/health`);
}, 300_000);

afterAll(async () => {
  await services?.stop();
  await issuer?.stop();
  await collector?.stop();
});

describe("split mode: adapter → gateway → subgraphs over HTTP", () => {
  it("idle, no service exports a span: the polls across services (the outbox relay's pulls, the ledger events) are traced in none (issue 32)", async () => {
    // the start-up's health checks, exported within 200 ms, are behind us
    await new Promise((r) => setTimeout(r, 1_000));
    const mark = collector.spans.length;
    await new Promise((r) => setTimeout(r, 3_000));
    expect(collector.spans.slice(mark).map((span) => `${span.service}: ${span.name}`)).toEqual([]);
  });

  it("creates and reads a user through the adapter", async () => {
    const jwt = await issuer.sign({ sub: "split-user" });
    const created = await fetch(`${adapterUrl}/v0/user/`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": jwt },
      body: JSON.stringify(await registrationBody(jwt)),
    });
    expect(created.status).toBe(201);
    const user = await created.json();
    const me = await fetch(`${adapterUrl}/v0/user/me?expand=wallets`, { headers: { "x-platform-jwt": jwt } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id: user.id, wallets: expect.arrayContaining([expect.objectContaining({ type: "EOA" })]) });
    const problem = await fetch(`${adapterUrl}/v0/user/me`, { headers: { "x-platform-jwt": "garbage" } });
    expect(problem.status).toBe(401);
    expect(await problem.json()).toMatchObject({ error_code: "USR-401-001", trace_id: problem.headers.get("x-request-id") });
  });

  it("one trace crosses adapter → gateway → subgraph (traceparent), and it is the ProblemDetail's trace_id", async () => {
    const jwt = await issuer.sign({ sub: "split-user" });
    const missing = await fetch(`${adapterUrl}/v0/wallets/999999`, { headers: { "x-platform-jwt": jwt } });
    expect(missing.status).toBe(404);
    const traceId = (await missing.json()).trace_id as string;
    const servicesOf = () => new Set(collector.spans.filter((span) => span.traceId === traceId && span.kind === 2).map((span) => span.service));
    for (const until = Date.now() + 20_000; servicesOf().size < 3 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 200));
    expect([...servicesOf()].sort()).toEqual(expect.arrayContaining(["platform-adapter", "platform-gateway", "platform-users"]));
    const spans = collector.spans.filter((span) => span.traceId === traceId);
    const adapter = spans.find((span) => span.service === "platform-adapter" && span.kind === 2)!;
    expect(adapter).toMatchObject({ name: "GET /v0/wallets/:wallet_id", parentSpanId: "" });
    // each hop's server span has its parent in the trace: the caller's client span
    const ids = new Set(spans.map((span) => span.spanId));
    for (const server of spans.filter((span) => span.kind === 2 && span !== adapter)) expect(ids.has(server.parentSpanId), `${server.service} ${server.name}`).toBe(true);
  });

  it("delivers the sandbox KYC provider's decision from the users service to the adapter's receiver (SANDBOX_WEBHOOK_BASE_URL)", async () => {
    const jwt = await issuer.sign({ sub: "split-kyc-user" });
    const post = (path: string, body?: unknown) =>
      fetch(`${adapterUrl}${path}`, {
        method: "POST",
        headers: { "x-platform-jwt": jwt, ...(body !== undefined && { "content-type": "application/json" }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    expect((await post("/v0/user/", await registrationBody(jwt))).status).toBe(201);
    expect((await post("/v0/kyc/access-token")).status).toBe(200);
    expect((await post("/v0/kyc/submissions")).status).toBe(202);
    const decided = await post("/v0/kyc/sandbox/decision", { answer: "GREEN" });
    expect(decided.status).toBe(200);
    expect(await decided.json()).toMatchObject({ event_type: "applicantReviewed", webhook_status: 200, status: "approved" });
  });

  it("finance asks the users service over HTTP whose wallet a sandbox deposit credits", async () => {
    const jwt = await issuer.sign({ sub: "split-user" });
    const wallets = await (await fetch(`${adapterUrl}/v0/wallets`, { headers: { "x-platform-jwt": jwt } })).json();
    const deposit = (wallet_id: number) =>
      fetch(`${adapterUrl}/v0/sandbox/deposits`, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt }, body: JSON.stringify({ wallet_id, asset: "NOPE", amount: "1" }) });
    // the users service's WAL-404-001 arrives as it is; the caller's own wallet passes on to the asset check (finance's catalogue is empty here)
    const missing = await deposit(999_999);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error_code).toBe("WAL-404-001");
    const own = await deposit(wallets.items[0].id);
    expect(own.status).toBe(422);
    expect((await own.json()).error_code).toBe("TXN-422-002");
  });

  it("authenticates agent tokens through the agents service, gates them at the gateway and records their uses there", async () => {
    const jwt = await issuer.sign({ sub: "split-user" });
    const issued = await fetch(`${adapterUrl}/v0/agent/tokens`, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt }, body: JSON.stringify({ name: "split", scopes: ["read:balances"] }) });
    expect(issued.status).toBe(201);
    const { id, token } = await issued.json();
    expect((await fetch(`${adapterUrl}/v0/wallets`, { headers: { "x-platform-token": token } })).status).toBe(200);
    const refused = await fetch(`${adapterUrl}/v0/transactions`, { headers: { "x-platform-token": token } });
    expect({ status: refused.status, code: (await refused.json()).error_code }).toEqual({ status: 403, code: "AGT-403-001" });
    const uses = await (await fetch(`${adapterUrl}/v0/agent/tokens/${id}/uses`, { headers: { "x-platform-jwt": jwt } })).json();
    expect(uses.items.map((u: { operation: string; outcome: string }) => [u.operation, u.outcome])).toEqual([
      ["ListTransactions", "AGT-403-001"],
      ["ListWallets", "ok"],
    ]);
  });

  it("plans across subgraphs through the gateway's /graphql with the REST credential headers", async () => {
    const jwt = await issuer.sign({ sub: "split-user" });
    const response = await fetch(gatewayUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": jwt },
      body: JSON.stringify({ query: "{ me { id cards { id } agent_tasks { id } } }" }),
    });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    expect(body.data.me).toMatchObject({ cards: [], agent_tasks: [] });
  });

  it("resolves x-platform-orgid <org>:<env> through the identity service over HTTP", async () => {
    // set up as a dashboard user would, on the identity subgraph directly (the adapter has no DASHBOARD_AUTH here)
    const dashboard: Principal = { kind: "dashboard", issuer: "https://dashboard.test", subject: "split-owner" };
    const identity = async (query: string, variables: Record<string, unknown>) => {
      const response = await fetch(identityUrl, signedPost(dashboard, "identity", JSON.stringify({ query, variables })));
      const body = await response.json();
      expect(body.errors).toBeUndefined();
      return body.data;
    };
    const { organisation } = await identity(`mutation ($input: CreateOrganisationInput!) { organisation: create_organisation(input: $input) { id } }`, { input: { name: "Split Ltd" } });
    const { environment } = await identity(`mutation ($org_id: ID!, $input: CreateEnvironmentInput!) { environment: create_environment(org_id: $org_id, input: $input) { id } }`, {
      org_id: organisation.id,
      input: { name: "Production", auth_providers: [{ name: "provider_a", issuer: issuer.issuer, jwks_uri: issuer.jwksUri }] },
    });
    const orgid = `${organisation.id}:${environment.id}`;
    const jwt = await issuer.sign({ sub: "split-env-user" });
    const headers = { "content-type": "application/json", "x-platform-jwt": jwt, "x-platform-orgid": orgid };
    const created = await fetch(`${adapterUrl}/v0/user/`, { method: "POST", headers, body: JSON.stringify(await registrationBody(jwt, { environment_id: orgid })) });
    expect(created.status).toBe(201);
    const me = await fetch(`${adapterUrl}/v0/user/me`, { headers });
    expect((await me.json()).id).toBe((await created.json()).id);
    // the user belongs to the environment, not to the default one; unknown environments are 401 USR-401-003
    expect((await (await fetch(`${adapterUrl}/v0/user/me`, { headers: { "x-platform-jwt": jwt } })).json()).error_code).toBe("USR-404-001");
    const unknown = await fetch(`${adapterUrl}/v0/user/me`, { headers: { ...headers, "x-platform-orgid": `${organisation.id}:env_missing` } });
    expect((await unknown.json()).error_code).toBe("USR-401-003");
  });

  it("a subgraph reached directly refuses requests without a valid signed principal", async () => {
    const query = JSON.stringify({ query: "{ me { id } }" });
    const bare = await fetch(usersUrl, { method: "POST", headers: { "content-type": "application/json" }, body: query });
    expect(bare.status).toBe(401);
    expect((await bare.json()).errors[0].extensions.error_code).toBe("GEN-401-001");
    const forged = signPrincipal({ kind: "internal", service: "gateway" }, { secret: "not-the-secret-not-the-secret-123456", audience: "users", body: query });
    const wrong = await fetch(usersUrl, { method: "POST", headers: { "content-type": "application/json", [PRINCIPAL_HEADER]: forged }, body: query });
    expect(wrong.status).toBe(401);
    const signed = await fetch(usersUrl, signedPost({ kind: "anonymous" }, "users", query));
    expect((await signed.json()).errors[0].extensions.error_code).toBe("USR-401-001");
  });

  it("a subgraph reached directly applies the GraphQL limits: a 200-level introspection chain and a comment-padded document are refused unrun", async () => {
    const gateway: Principal = { kind: "internal", service: "gateway" };
    const post = async (query: string) => {
      const response = await fetch(usersUrl, signedPost(gateway, "users", JSON.stringify({ query })));
      return { status: response.status, body: await response.json() };
    };
    const deep = await post(`{ __schema { types { ${"ofType { ".repeat(200)}name${" }".repeat(200)} } } }`);
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0]).toMatchObject({ message: expect.stringMatching(/depth limit of 21 exceeded, found 203/), extensions: { code: "GRAPHQL_VALIDATION_FAILED" } });
    const padded = await post(`{ _service { sdl } }\n${"#".repeat(100_000)}`);
    expect(padded.status).toBe(400);
    expect(padded.body.errors[0]).toMatchObject({ message: expect.stringMatching(/more than 65536 bytes/), extensions: { code: "GRAPHQL_PARSE_FAILED" } });
    // the public /graphql's body limit is 64 KiB, answered in the GraphQL shape
    const large = await fetch(gatewayUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ __typename }", variables: { padding: "x".repeat(64 * 1024) } }) });
    expect(large.status).toBe(413);
    expect((await large.json()).errors[0].extensions.error_code).toBe("GEN-413-001");
  });

  it("a captured principal is refused at another subgraph, with another body, and a second time", async () => {
    const gateway: Principal = { kind: "internal", service: "gateway" };
    const query = JSON.stringify({ query: "{ _service { sdl } }" });
    const captured = signedPost(gateway, "users", query);
    const header = (captured.headers as Record<string, string>)[PRINCIPAL_HEADER]!;
    const post = (url: string, body: string) => fetch(url, { method: "POST", headers: { "content-type": "application/json", [PRINCIPAL_HEADER]: header }, body });
    // to another service: signed for the users subgraph only
    expect((await post(identityUrl, query)).status).toBe(401);
    // with another operation: signed over the original body only
    const other = JSON.stringify({ query: `{ principal: _principal_for_pat(token: "x") { user_id } }` });
    expect((await post(usersUrl, other)).status).toBe(401);
    // as sent: accepted once
    const original = await post(usersUrl, query);
    expect(original.status).toBe(200);
    expect((await original.json()).data._service.sdl).toContain("type");
    expect((await post(usersUrl, query)).status).toBe(401);
  });

  it("the public /graphql ignores a valid internal principal: the request is anonymous", async () => {
    const body = JSON.stringify({
      query: `mutation ($input: WalletClaimInput!) { record_wallet_claim(input: $input) { outcome } }`,
      variables: { input: { event_id: `evt_${randomBytes(6).toString("hex")}`, type: "wallet.unknown_type", created_at: new Date().toISOString() } },
    });
    const request = signedPost(ADAPTER_PRINCIPAL, "gateway", body, "127.0.0.1", "internal");
    const replayed = await (await fetch(gatewayUrl, request)).json();
    expect(replayed.data).toBeNull();
    expect(replayed.errors[0].extensions.error_code).toBe("USR-403-001");
    // the very same request is the adapter's own on the internal listener
    const internal = await (await fetch(gatewayInternalUrl, request)).json();
    expect(internal.errors).toBeUndefined();
    expect(internal.data.record_wallet_claim.outcome).toEqual(expect.any(String));
  });

  it("the gateway's internal listener takes only principals the adapter signed for it, over the body sent", async () => {
    const query = JSON.stringify({ query: "{ me { id } }" });
    const refused = async (init: RequestInit) => {
      const response = await fetch(gatewayInternalUrl, init);
      expect(response.status).toBe(401);
      expect((await response.json()).errors[0].extensions.error_code).toBe("GEN-401-001");
    };
    const jwt = await issuer.sign({ sub: "split-internal" });
    await refused({ method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt }, body: query });
    await refused(signedPost(ADAPTER_PRINCIPAL, "users", query, "127.0.0.1"));
    const other = signedPost({ kind: "anonymous" }, "gateway", query, "127.0.0.1", "required");
    await refused({ ...other, body: JSON.stringify({ query: "{ me { id phone } }" }) });
    // without a credential mode: refused, the gateway would not know how to count the headers
    await refused(signedPost({ kind: "anonymous" }, "gateway", query, "127.0.0.1"));
    // forwarded credentials are still verified by the gateway
    const forwarded = signedPost({ kind: "anonymous" }, "gateway", query, "127.0.0.1", "required");
    const response = await fetch(gatewayInternalUrl, { ...forwarded, headers: { ...(forwarded.headers as Record<string, string>), "x-platform-jwt": "garbage" } });
    expect((await response.json()).errors[0].extensions.error_code).toBe("USR-401-001");
  });

  it("counts each client's address at the gateway, as the adapter saw it (TRUST_PROXY)", async () => {
    const attempt = (address: string) =>
      fetch(`${adapterUrl}/v0/user/me`, { headers: { "x-platform-jwt": `garbage-${randomBytes(4).toString("hex")}`, "x-forwarded-for": address } });
    for (let i = 0; i < GATEWAY_AUTH_FAILURES; i++) expect((await attempt("203.0.113.10")).status).toBe(401);
    const limited = await attempt("203.0.113.10");
    expect(limited.status).toBe(429);
    expect((await limited.json()).error_code).toBe("GEN-429-001");
    // another client behind the same adapter has its own budget
    const other = await attempt("203.0.113.11");
    expect(other.status).toBe(401);
    expect((await other.json()).error_code).toBe("USR-401-001");
  });
});

// last: it stops a subgraph process
describe("split mode: a subgraph process down", () => {
  it("answers /health 503 naming the subgraph the gateway cannot reach, and the rest of the API keeps its own errors", async () => {
    const finance = services.children[SUBGRAPH_NAMES.indexOf("finance")]!;
    finance.kill("SIGTERM");
    await new Promise((resolve) => (finance.exitCode !== null ? resolve(undefined) : finance.once("exit", resolve)));
    const health = await fetch(`${adapterUrl}/health`);
    expect(health.status).toBe(503);
    const problem = await health.json();
    expect(problem).toMatchObject({ status: 503, error_code: "GEN-503-001", detail: "The finance service could not be reached." });
    // routes that need no finance field are untouched
    const anonymous = await fetch(`${adapterUrl}/v0/user/me`);
    expect(anonymous.status).toBe(401);
  });
});
