import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRINCIPAL_HEADER } from "../../../lib/auth/internal-principal.ts";
import { SUBGRAPH_NAMES, SUBGRAPHS, type SubgraphName } from "../../../lib/graphql/subgraph-registry.ts";
import { readSupergraph } from "../../../server/supergraph.ts";
import { platformAuthenticator, principalSigning, socketAddress, startHiveGateway, type HiveGateway } from "../../support/hive-gateway.ts";
import { TestIssuer } from "../../support/jwt-issuer.ts";
import { freePort } from "../../support/platform.ts";
import { registrationBody } from "../../support/registration.ts";
import { startRoundRobin, type Forwarded, type RoundRobin } from "../../support/round-robin.ts";
import { ServiceProcesses } from "../../support/service-processes.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// Issue 31: another router in front of the split-mode subgraphs. Hive Gateway's runtime with our
// checked-in supergraph and one plugin (test/support/hive-gateway.ts: our authentication, the
// principal signed per subgraph fetch) answers the GraphQL cases as our gateway does. On
// PostgreSQL the users subgraph runs as two replicas on its one database behind a round robin
// (test/support/round-robin.ts), the URL every caller has for it: Hive Gateway's fetches alternate
// between them, and a principal one replica accepted is refused by the other (the replay store
// they share, lib/auth/replay-store.ts). On PGlite a database has one process: one replica.

const internalSecret = randomBytes(32).toString("hex");
const services = new ServiceProcesses(internalSecret, {}, 100_000);
let issuer: TestIssuer;
let hive: HiveGateway;
let hiveUrl: string;
let ourUrl: string;
const subgraphUrls = {} as Record<SubgraphName, string>;
const USERS_REPLICAS = onPostgres ? 2 : 1;
const usersPorts: number[] = [];
let usersBalancer: RoundRobin;
/** what the users replicas answered, as the round robin sent it to them */
const usersForwarded: Forwarded[] = [];

beforeAll(async () => {
  issuer = await TestIssuer.start();
  const authProviders = JSON.stringify([{ name: "provider_a", issuer: issuer.issuer, jwks_uri: issuer.jwksUri }]);
  const ports: Record<string, number> = {};
  for (const name of SUBGRAPH_NAMES) {
    ports[name] = await freePort();
    subgraphUrls[name] = `http://127.0.0.1:${ports[name]}/graphql`;
  }
  for (let i = 0; i < USERS_REPLICAS; i++) usersPorts.push(await freePort());
  usersBalancer = await startRoundRobin(usersPorts, { keepAlive: true, onForward: (forwarded) => usersForwarded.push(forwarded) });
  subgraphUrls.users = `${usersBalancer.url}/graphql`;
  const urlVariables = Object.fromEntries(SUBGRAPHS.map(({ name, urlVariable }) => [urlVariable, subgraphUrls[name]]));
  const subgraphEnv = (port: number, databaseUrl: string | undefined) => ({ SUBGRAPH_PORT: String(port), DATA_DIR: "memory://", PUBLIC_BASE_URL: "http://public.invalid", ...urlVariables, ...(databaseUrl && { DATABASE_URL: databaseUrl }) });
  const usersDatabaseUrl = await freshDatabaseUrl();
  services.start("users", subgraphEnv(usersPorts[0]!, usersDatabaseUrl));
  for (const name of SUBGRAPH_NAMES) if (name !== "users") services.start(name, subgraphEnv(ports[name]!, await freshDatabaseUrl()));
  // the second users replica once the first has migrated their database
  await services.waitFor(`http://127.0.0.1:${usersPorts[0]}/health`);
  for (const port of usersPorts.slice(1)) services.start("users", subgraphEnv(port, usersDatabaseUrl));
  // our gateway on the same subgraphs, to compare answers with
  const [graphqlPort, internalPort] = [await freePort(), await freePort()];
  ourUrl = `http://127.0.0.1:${graphqlPort}/graphql`;
  services.start("gateway", { GRAPHQL_PORT: String(graphqlPort), GATEWAY_INTERNAL_PORT: String(internalPort), AUTH_PROVIDERS: authProviders, ...urlVariables });
  // the subgraphs' readiness: /health on each (no principal needed)
  for (const port of usersPorts) await services.waitFor(`http://127.0.0.1:${port}/health`);
  for (const name of SUBGRAPH_NAMES) await services.waitFor(subgraphUrls[name].replace("/graphql", "/health"));
  await services.waitFor(ourUrl.replace("/graphql", "/health"));
  const env = { INTERNAL_SECRET: internalSecret, AUTH_PROVIDERS: authProviders, JWKS_ALLOW_LOOPBACK_HTTP: "true", DATA_DIR: "memory://" };
  const authenticator = await platformAuthenticator(env, subgraphUrls);
  hive = await startHiveGateway({ supergraph: readSupergraph(), subgraphUrls, plugins: [principalSigning({ authenticator, internalSecret, subgraphUrls, clientAddress: socketAddress })] });
  hiveUrl = hive.url;
}, 150_000);

afterAll(async () => {
  await hive?.stop();
  await services.stop();
  await usersBalancer?.close();
  await issuer?.stop();
});

async function post(url: string, query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ query, variables }) });
  return { status: response.status, body: (await response.json()) as { data?: Record<string, any> | null; errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[] } };
}

/** The same request to Hive Gateway and to ours. */
async function both(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return { hive: await post(hiveUrl, query, variables, headers), ours: await post(ourUrl, query, variables, headers) };
}

const CREATE_USER = `mutation ($input: CreateUserInput!) { create_user(input: $input) { id status wallets { type is_primary } } }`;
const ME = `{ me { id status wallets { id type address is_primary } pints { active_count } transactions { items { id } pagination { total } } widgets { id } } }`;
const CREATE_WIDGET = `mutation ($input: CreateWidgetInput!) { create_widget(input: $input) { id type title position { x y w h } } }`;
const WIDGET = `query ($id: ID!) { widget(id: $id) { id title } }`;

/** The principal signed into a forwarded request (the envelope's payload: internal-principal.ts signPrincipal). */
function signedPrincipal(forwarded: Forwarded): { kind: string } {
  const header = forwarded.headers[PRINCIPAL_HEADER];
  if (typeof header !== "string") return { kind: "none" };
  return (JSON.parse(Buffer.from(header.split(".")[0]!, "base64url").toString()) as { principal: { kind: string } }).principal;
}

/** A registered user: its JWT header, registered through `url`. */
async function registered(url: string, subject: string): Promise<Record<string, string>> {
  const jwt = await issuer.sign({ sub: subject });
  const created = await post(url, CREATE_USER, { input: await registrationBody(jwt) }, { "x-platform-jwt": jwt });
  expect(created.body.errors).toBeUndefined();
  expect(created.body.data!.create_user).toMatchObject({ status: expect.any(String), wallets: expect.arrayContaining([{ type: "EOA", is_primary: true }]) });
  return { "x-platform-jwt": jwt };
}

describe("Hive Gateway in front of the split-mode subgraphs (issue 31)", () => {
  it("a mutation (registration) through Hive Gateway; the user reads the same across all four subgraphs through either gateway", async () => {
    const alice = await registered(hiveUrl, "hive-alice");
    const { hive: viaHive, ours } = await both(ME, {}, alice);
    expect(viaHive.status).toBe(200);
    expect(viaHive.body.errors).toBeUndefined();
    expect(viaHive.body.data!.me).toMatchObject({ wallets: expect.arrayContaining([expect.objectContaining({ type: "EOA" })]), transactions: { items: [], pagination: { total: 0 } }, widgets: [] });
    // the identity subgraph resolves pints to null outside an identity lookup: it answered, signed in, with no error
    expect(viaHive.body.data!.me.pints).toBeNull();
    expect(viaHive.body).toEqual(ours.body);
  });

  it("a mutation on another subgraph, and another user's object is an error, not data, through either gateway", async () => {
    const alice = await registered(hiveUrl, "hive-alice-2");
    const bob = await registered(ourUrl, "hive-bob");
    const created = await post(hiveUrl, CREATE_WIDGET, { input: { type: "balance", title: "Mine", position: { x: 0, y: 0, w: 2, h: 1 } } }, alice);
    expect(created.body.errors).toBeUndefined();
    const widget = created.body.data!.create_widget;
    expect(widget).toMatchObject({ type: "balance", title: "Mine", position: { x: 0, y: 0, w: 2, h: 1 } });
    const own = await both(WIDGET, { id: widget.id }, alice);
    expect(own.hive.body).toEqual({ data: { widget: { id: widget.id, title: "Mine" } } });
    expect(own.ours.body).toEqual(own.hive.body);
    const other = await both(WIDGET, { id: widget.id }, bob);
    expect(other.hive.body.data).toBeNull();
    expect(other.hive.body.errors![0]).toMatchObject({ path: ["widget"], extensions: { error_code: "WDG-404-001", serviceName: "agents" } });
    // the subgraph's error as it sent it, the same at either gateway
    expect(other.hive.body).toEqual(other.ours.body);
  });

  it("refuses a credential that fails as our gateway does (401 before any subgraph runs); without any, the caller is anonymous", async () => {
    const garbage = await both(ME, {}, { "x-platform-jwt": "garbage" });
    expect(garbage.hive.status).toBe(401);
    expect(garbage.hive.body).toEqual(garbage.ours.body);
    expect(garbage.hive.body.errors![0]!.extensions!.error_code).toBe("USR-401-001");
    const anonymous = await both(ME);
    expect(anonymous.hive.body.data).toBeNull();
    expect(anonymous.hive.body.errors![0]!.extensions!.error_code).toBe("USR-401-001");
    expect(anonymous.hive.body.errors![0]!.extensions!.error_code).toBe(anonymous.ours.body.errors![0]!.extensions!.error_code);
  });

  it("refuses agent tokens: our gateway alone narrows them to the AgentTool fields their scopes allow", async () => {
    const alice = await registered(ourUrl, "hive-agent-owner");
    const issued = await post(ourUrl, `mutation { create_agent_token(input: { name: "hive", scopes: ["read:balances"] }) { token } }`, {}, alice);
    const token = issued.body.data!.create_agent_token.token as string;
    const viaHive = await post(hiveUrl, `{ me { id wallets { id } } }`, {}, { "x-platform-token": token });
    expect(viaHive.status).toBe(403);
    expect(viaHive.body.errors![0]!.extensions!.error_code).toBe("AGT-403-001");
  });

  it("keeps the supergraph's @inaccessible fields (the principal look-ups) out of its API", async () => {
    const query = `{ _principal_for_pat(token: "x") { user_id } }`;
    const { hive: viaHive, ours } = await both(query);
    // a difference: a document that fails validation is 400 at ours, 200 at Hive Gateway for an application/json client (GraphQL over HTTP's legacy rule)
    expect([viaHive.status, ours.status]).toEqual([200, 400]);
    expect(viaHive.body.data).toBeUndefined();
    expect(viaHive.body.errors![0]!.message).toMatch(/Cannot query field "_principal_for_pat" on type "Query"/);
    expect(ours.body.errors![0]!.message).toMatch(/Cannot query field "_principal_for_pat" on type "Query"/);
    expect((await post(hiveUrl, query, {}, { accept: "application/graphql-response+json" })).status).toBe(400);
  });

  it("answers the databases' health through the router, each subgraph its own, anonymous callers included", async () => {
    const query = `{ health { users { status } finance { status } identity { status } agents { status } } }`;
    const { hive: viaHive, ours } = await both(query);
    expect(viaHive.body).toEqual({ data: { health: { users: { status: "ok" }, finance: { status: "ok" }, identity: { status: "ok" }, agents: { status: "ok" } } } });
    expect(viaHive.body).toEqual(ours.body);
    // Hive Gateway's own
    for (const path of ["/healthcheck", "/readiness"]) expect((await fetch(hiveUrl.replace("/graphql", path))).status).toBe(200);
  });

  it.skipIf(!onPostgres)("the users replicas share the principals used: the one the plugin signed for a fetch, replayed at the other replica, is refused (PostgreSQL)", async () => {
    const alice = await registered(hiveUrl, "hive-replay");
    const from = usersForwarded.length;
    const answer = await post(hiveUrl, `{ me { id status } }`, {}, alice);
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data!.me).toMatchObject({ id: expect.any(String), status: expect.any(String) });
    // that request's users fetch: the one carrying the plugin's principal for alice (the authenticator's own look-ups carry an internal one)
    const fetches = usersForwarded.slice(from).filter((forwarded) => signedPrincipal(forwarded).kind === "user");
    expect(fetches).toHaveLength(1);
    const fetched = fetches[0]!;
    const otherPort = usersPorts[(fetched.replica + 1) % USERS_REPLICAS]!;
    const headers = Object.entries(fetched.headers).filter(([name]) => name !== "host" && name !== "content-length");
    const replayed = await fetch(`http://127.0.0.1:${otherPort}${fetched.path}`, { method: fetched.method, headers: headers.map(([name, value]) => [name, String(value)]), body: fetched.body });
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as { errors: { extensions: Record<string, unknown> }[] }).errors[0]!.extensions).toMatchObject({ error_code: "GEN-401-001" });
    // Hive Gateway's fetches (and the authenticator's) went to both replicas
    expect(new Set(usersForwarded.map((forwarded) => forwarded.replica))).toEqual(new Set([0, 1]));
  });

  it("a subgraph fetch without the signed principal is refused: the plugin is what lets Hive Gateway in", async () => {
    const unsigned = await startHiveGateway({ supergraph: readSupergraph(), subgraphUrls, plugins: [] });
    try {
      const answer = await post(unsigned.url, `{ me { id } }`);
      expect(answer.body.data?.me ?? null).toBeNull();
      expect(answer.body.errors![0]!.extensions).toMatchObject({ error_code: "GEN-401-001" });
    } finally {
      await unsigned.stop();
    }
  });
});
