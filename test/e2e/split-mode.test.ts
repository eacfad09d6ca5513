import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRINCIPAL_HEADER, signPrincipal } from "../../lib/auth/internal-principal.ts";
import { TestIssuer } from "../support/jwt-issuer.ts";
import { freePort, randomAddress } from "../support/platform.ts";
import { freshDatabaseUrl } from "../support/test-database.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const children: ChildProcess[] = [];
const output: string[] = [];
let issuer: TestIssuer;
let adapterUrl: string;
let gatewayUrl: string;
let usersUrl: string;
let identityUrl: string;
const internalSecret = randomBytes(32).toString("hex");

function startService(name: string, env: Record<string, string>): void {
  const child = spawn(process.execPath, ["--import", "tsx", "bin/service.ts", name], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", INTERNAL_SECRET: internalSecret, HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => output.push(`[${name}] ${chunk}`));
  child.stderr!.on("data", (chunk) => output.push(`[${name}] ${chunk}`));
  children.push(child);
}

async function waitFor(url: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up:\n${output.join("")}`);
}

/** The split topology of docker-compose.yml as plain processes: four subgraphs, the gateway, the adapter. */
beforeAll(async () => {
  issuer = await TestIssuer.start();
  const authProviders = JSON.stringify([{ name: "provider_a", issuer: issuer.issuer, jwks_uri: issuer.jwksUri }]);
  const subgraphPorts: Record<string, number> = {};
  for (const name of ["users", "finance", "identity", "agents"]) {
    subgraphPorts[name] = await freePort();
    // each subgraph owns its data: its own database (PostgreSQL in e2e-postgres, in-memory PGlite otherwise)
    const databaseUrl = await freshDatabaseUrl();
    startService(name, { SUBGRAPH_PORT: String(subgraphPorts[name]), DATA_DIR: "memory://", SAFE_DEPLOY_DELAY_MS: "0", ...(databaseUrl && { DATABASE_URL: databaseUrl }) });
  }
  usersUrl = `http://127.0.0.1:${subgraphPorts.users}/graphql`;
  identityUrl = `http://127.0.0.1:${subgraphPorts.identity}/graphql`;
  const graphqlPort = await freePort();
  gatewayUrl = `http://127.0.0.1:${graphqlPort}/graphql`;
  startService("gateway", {
    GRAPHQL_PORT: String(graphqlPort),
    AUTH_PROVIDERS: authProviders,
    ...Object.fromEntries(Object.entries(subgraphPorts).map(([name, port]) => [`${name.toUpperCase()}_SUBGRAPH_URL`, `http://127.0.0.1:${port}/graphql`])),
  });
  const [port, identityPort, rpcPort] = [await freePort(), await freePort(), await freePort()];
  adapterUrl = `http://127.0.0.1:${port}`;
  startService("adapter", { PORT: String(port), IDENTITY_PORT: String(identityPort), RPC_PORT: String(rpcPort), GATEWAY_URL: gatewayUrl, PUBLIC_BASE_URL: adapterUrl });
  for (const [name, port] of Object.entries(subgraphPorts)) await waitFor(`http://127.0.0.1:${port}/health`).catch((e) => Promise.reject(new Error(`${name}: ${e.message}`)));
  await waitFor(gatewayUrl.replace("/graphql", "/health"));
  await waitFor(`${adapterUrl}/health`);
}, 180_000);

afterAll(async () => {
  for (const child of children) child.kill("SIGTERM");
  await Promise.all(children.map((c) => (c.exitCode !== null ? Promise.resolve() : new Promise((r) => c.once("exit", r)))));
  await issuer?.stop();
});

describe("split mode: adapter → gateway → subgraphs over HTTP", () => {
  it("creates and reads a user through the adapter", async () => {
    const jwt = await issuer.sign({ sub: "split-user" });
    const created = await fetch(`${adapterUrl}/v0/user/`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": jwt },
      body: JSON.stringify({ primary_eoa_address: randomAddress(), chain_id: 8453 }),
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
    const dashboard = signPrincipal({ kind: "dashboard", issuer: "https://dashboard.test", subject: "split-owner" }, internalSecret);
    const identity = async (query: string, variables: Record<string, unknown>) => {
      const response = await fetch(identityUrl, { method: "POST", headers: { "content-type": "application/json", [PRINCIPAL_HEADER]: dashboard }, body: JSON.stringify({ query, variables }) });
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
    const created = await fetch(`${adapterUrl}/v0/user/`, { method: "POST", headers, body: JSON.stringify({ primary_eoa_address: randomAddress(), chain_id: 8453 }) });
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
    const forged = signPrincipal({ kind: "internal", service: "gateway" }, "not-the-secret-not-the-secret-123456");
    const wrong = await fetch(usersUrl, { method: "POST", headers: { "content-type": "application/json", [PRINCIPAL_HEADER]: forged }, body: query });
    expect(wrong.status).toBe(401);
    const valid = signPrincipal({ kind: "anonymous" }, internalSecret);
    const signed = await fetch(usersUrl, { method: "POST", headers: { "content-type": "application/json", [PRINCIPAL_HEADER]: valid }, body: query });
    expect((await signed.json()).errors[0].extensions.error_code).toBe("USR-401-001");
  });
});
