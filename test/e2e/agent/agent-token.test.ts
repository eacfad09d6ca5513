import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRANSACTION_FIELDS } from "../../../rest-adapter/resources/resources.generated.ts";
import { userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { expectEachProblem, readOnlyPat, type RouteCall } from "../../support/route-cases.ts";

// Issue 11, agent tokens: issued, listed and revoked by the user; x-platform-token reaches the
// AgentTool operations within its scopes on REST and /graphql, and nothing else; every use recorded.
let platform: TestPlatform;
let user: Awaited<ReturnType<typeof userWithWallet>>;

beforeAll(async () => {
  platform = await startTestPlatform();
  user = await userWithWallet(platform);
  const deposit = await platform.api("/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet_id, asset: "ETH", amount: "2" } });
  expect(deposit.status).toBe(201);
});
afterAll(() => platform?.stop());

async function issue(jwt: string, body: Record<string, unknown>) {
  return platform.api("/v0/agent/tokens", { method: "POST", jwt, json: body });
}

async function agentToken(scopes: string[], jwt = user.jwt): Promise<{ id: string; token: string }> {
  const response = await issue(jwt, { name: `agent ${scopes.join(" ")}`, scopes });
  expect(response.status).toBe(201);
  return response.json();
}

function asAgent(token: string, path: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  headers.set("x-platform-token", token);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  return fetch(platform.urls.platform + path, { ...init, headers, ...(init.json !== undefined && { body: JSON.stringify(init.json) }) });
}

function graphqlAsAgent(token: string, query: string) {
  return fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": "application/json", "x-platform-token": token }, body: JSON.stringify({ query }) });
}

async function problem(response: Response) {
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  return { status: response.status, code: (await response.json()).error_code as string };
}

describe("issuing, listing and revoking agent tokens", () => {
  it("issues a token shown once, with a visible prefix, its scopes and a default 30-day expiry", async () => {
    const before = Date.now();
    const response = await issue(user.jwt, { name: "budget bot", scopes: ["read:transactions", "read:balances"] });
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created.token).toMatch(/^plat_agt_[0-9A-Za-z]{46}$/);
    expect(created).toMatchObject({ name: "budget bot", token_prefix: created.token.slice(0, 15), scopes: ["read:transactions", "read:balances"], revoked_at: null, last_used_at: null });
    expect(created.expires_at - before).toBeGreaterThanOrEqual(30 * 86_400_000 - 1000);
    expect(created.expires_at - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);
    const list = await (await platform.api("/v0/agent/tokens", { jwt: user.jwt })).json();
    const listed = list.items.find((t: { id: string }) => t.id === created.id);
    expect(listed).toMatchObject({ name: "budget bot", token_prefix: created.token_prefix });
    expect(JSON.stringify(list)).not.toContain(created.token);
  });

  it("refuses scopes outside spec 2.10's list, or none, with AGT-422-001, and lifetimes beyond 90 days", async () => {
    expect(await problem(await issue(user.jwt, { name: "x", scopes: ["read:everything"] }))).toEqual({ status: 422, code: "AGT-422-001" });
    expect(await problem(await issue(user.jwt, { name: "x", scopes: [] }))).toEqual({ status: 422, code: "AGT-422-001" });
    expect(await problem(await issue(user.jwt, { name: "x", scopes: ["read:balances"], expires_in_days: 91 }))).toEqual({ status: 422, code: "GEN-422-001" });
  });

  it("lets a PAT with write issue tokens and one with read list them, not issue them", async () => {
    const pat = async (scopes: string[]) => (await (await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt: user.jwt, json: { name: "cli", scopes } })).json()).token as string;
    const writer = await pat(["write"]);
    expect((await platform.api("/v0/agent/tokens", { method: "POST", pat: writer, json: { name: "from cli", scopes: ["read:balances"] } })).status).toBe(201);
    const reader = await pat(["read"]);
    expect((await platform.api("/v0/agent/tokens", { pat: reader })).status).toBe(200);
    expect(await problem(await platform.api("/v0/agent/tokens", { method: "POST", pat: reader, json: { name: "x", scopes: ["read:balances"] } }))).toEqual({ status: 403, code: "USR-403-001" });
  });

  it("answers 404 AGT-404-001 for another user's token, and revokes nothing of theirs", async () => {
    const other = await platform.createUser();
    const theirs = await agentToken(["read:balances"], other.jwt);
    expect(await problem(await platform.api(`/v0/agent/tokens/${theirs.id}`, { method: "DELETE", jwt: user.jwt }))).toEqual({ status: 404, code: "AGT-404-001" });
    expect(await problem(await platform.api(`/v0/agent/tokens/${theirs.id}/uses`, { jwt: user.jwt }))).toEqual({ status: 404, code: "AGT-404-001" });
    expect((await asAgent(theirs.token, "/v0/wallets")).status).toBe(200);
  });

  it("caps a user's active tokens at 20: the next is 409 AGT-409-001 until one is revoked (issue 26)", async () => {
    const { jwt } = await platform.createUser();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await agentToken(["read:balances"], jwt)).id);
    const refused = await issue(jwt, { name: "one too many", scopes: ["read:balances"] });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error_code: "AGT-409-001", detail: expect.stringContaining("(20)") });
    expect((await (await platform.api("/v0/agent/tokens", { jwt })).json()).items).toHaveLength(20);
    expect((await platform.api(`/v0/agent/tokens/${ids[0]}`, { method: "DELETE", jwt })).status).toBe(200);
    expect((await issue(jwt, { name: "in its place", scopes: ["read:balances"] })).status).toBe(201);
    expect((await issue(jwt, { name: "one too many", scopes: ["read:balances"] })).status).toBe(409);
  });

  it("locks a revoked token out on its next request", async () => {
    const { id, token } = await agentToken(["read:transactions"]);
    expect((await asAgent(token, "/v0/transactions")).status).toBe(200);
    const revoked = await platform.api(`/v0/agent/tokens/${id}`, { method: "DELETE", jwt: user.jwt });
    expect(revoked.status).toBe(200);
    expect((await revoked.json()).revoked_at).toEqual(expect.any(Number));
    expect(await problem(await asAgent(token, "/v0/transactions"))).toEqual({ status: 401, code: "USR-401-005" });
    expect((await graphqlAsAgent(token, "{ transactions { pagination { total } } }")).status).toBe(401);
  });
});

describe("x-platform-token", () => {
  it("reads the transaction feed through REST and /graphql with read:transactions", async () => {
    const { token } = await agentToken(["read:transactions"]);
    const rest = await asAgent(token, "/v0/transactions?meta=true");
    expect(rest.status).toBe(200);
    const page = await rest.json();
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ type: "deposit", amount: "2" });
    expect(page.meta.transaction_count).toBe(1);
    const graphql = await (await graphqlAsAgent(token, `{ transactions { items { ${TRANSACTION_FIELDS} } pagination { total } } }`)).json();
    expect(graphql.errors).toBeUndefined();
    expect(graphql.data.transactions.pagination.total).toBe(1);
  });

  it("is refused with 403 AGT-403-001 where it lacks the scope, and AGT-403-002 outside the AgentTool operations", async () => {
    const { token } = await agentToken(["read:transactions"]);
    expect(await problem(await asAgent(token, "/v0/wallets"))).toEqual({ status: 403, code: "AGT-403-001" });
    expect(await problem(await asAgent(token, `/v0/wallets/${user.wallet_id}/assets`))).toEqual({ status: 403, code: "AGT-403-001" });
    expect(await problem(await asAgent(token, "/v0/accounts"))).toEqual({ status: 403, code: "AGT-403-001" });
    for (const [path, init] of [
      ["/v0/user/me", {}],
      ["/v0/agent/tokens", {}],
      ["/v0/agent/tokens", { method: "POST", json: { name: "child", scopes: ["read:transactions"] } }],
      ["/v0/user/me/personal-access-tokens", {}],
      ["/v0/kyc/status", {}],
      ["/v0/kyc/access-token", { method: "POST" }],
      [`/v0/wallets/${user.wallet_id}`, { method: "PATCH", json: { nickname: "agent was here" } }],
      ["/v0/budgets", { method: "POST", json: { category: "groceries", amount: "100", period: "monthly" } }],
    ] as const)
      expect(await problem(await asAgent(token, path, init as RequestInit & { json?: unknown })), `${init && "method" in init ? init.method : "GET"} ${path}`).toEqual({ status: 403, code: "AGT-403-002" });
  });

  it("means nothing on the identity host: identity administration stays out of reach", async () => {
    const { token } = await agentToken(["read:transactions", "read:balances", "write:transfers", "write:strategies"]);
    for (const path of ["/v0/organisation/org_any/environments", "/v0/organisation/org_any/keys", "/v0/idsvc/key"]) {
      const response = await platform.identity(path, { headers: { "x-platform-token": token, authorization: `Bearer ${token}` } });
      expect(response.status, `${path}: ${await response.clone().text()}`).toBe(401);
    }
  });

  it("sees only the AgentTool fields on /graphql: the user's id, not their phone number", async () => {
    const { token } = await agentToken(["read:balances"]);
    const allowed = await (await graphqlAsAgent(token, "{ me { id accounts { items { source name } total_value_usd } } }")).json();
    expect(allowed.errors, JSON.stringify(allowed.errors)).toBeUndefined();
    expect(allowed.data.me.id).toBe(user.id);
    const refused = await (await graphqlAsAgent(token, "{ me { id phone_number } }")).json();
    expect(refused.data ?? null).toBeNull();
    expect(refused.errors[0].extensions).toMatchObject({ error_code: "AGT-403-002" });
    const introspection = await (await graphqlAsAgent(token, "{ __schema { types { name } } }")).json();
    expect(introspection.errors[0].extensions.error_code).toBe("AGT-403-002");
    const tokens = await (await graphqlAsAgent(token, "{ agent_tokens { id } }")).json();
    expect(tokens.errors[0].extensions.error_code).toBe("AGT-403-002");
  });

  it("cannot be sent next to the user's own credential", async () => {
    const { token } = await agentToken(["read:transactions"]);
    expect(await problem(await asAgent(token, "/v0/transactions", { headers: { "x-platform-jwt": user.jwt } }))).toEqual({ status: 401, code: "USR-401-005" });
  });

  it("records each use with its outcome, newest first, for the user to list", async () => {
    const { id, token } = await agentToken(["read:transactions"]);
    await asAgent(token, "/v0/transactions");
    await asAgent(token, "/v0/wallets");
    await graphqlAsAgent(token, "{ insights { items { id } } }");
    const response = await platform.api(`/v0/agent/tokens/${id}/uses?limit=10`, { jwt: user.jwt });
    expect(response.status).toBe(200);
    const { items } = await response.json();
    expect(items.map((u: { operation: string; outcome: string }) => [u.operation, u.outcome])).toEqual([
      ["query { insights }", "ok"],
      ["ListWallets", "AGT-403-001"],
      ["ListTransactions", "ok"],
    ]);
    expect(items[0].at).toEqual(expect.any(Number));
    const listed = (await (await platform.api("/v0/agent/tokens", { jwt: user.jwt })).json()).items.find((t: { id: string }) => t.id === id);
    expect(listed.last_used_at).toBe(items[0].at);
  });
});

describe("the AgentTool contract at /graphql/agent", () => {
  const agentGraphql = (token: string, query: string) =>
    fetch(`${platform.urls.graphql}/agent`, { method: "POST", headers: { "content-type": "application/json", "x-platform-token": token }, body: JSON.stringify({ query }) });

  it("shows an agent introspecting it the AgentTool fields and nothing else", async () => {
    const { token } = await agentToken(["read:transactions"]);
    const body = await (await agentGraphql(token, "{ __schema { queryType { fields { name } } mutationType { name } } user: __type(name: \"User\") { fields { name } } }")).json();
    expect(body.errors).toBeUndefined();
    const roots = body.data.__schema.queryType.fields.map((f: { name: string }) => f.name);
    expect(roots).toEqual(expect.arrayContaining(["transactions", "transaction", "budgets", "insights", "me", "wallets"]));
    expect(roots).not.toContain("agent_tokens");
    expect(roots).not.toContain("personal_access_tokens");
    // AgentTool is read-only (spec 1): the contract has no mutations; agent writes (AgentAction) go to /graphql
    expect(body.data.__schema.mutationType).toBeNull();
    expect(body.data.user.fields.map((f: { name: string }) => f.name)).not.toContain("phone_number");
  });

  it("lists transactions with read:transactions, and refuses what lies outside the contract before anything runs", async () => {
    const { id, token } = await agentToken(["read:transactions"]);
    const listed = await (await agentGraphql(token, "query Feed { transactions { items { id amount } pagination { total } } }")).json();
    expect(listed.errors).toBeUndefined();
    expect(listed.data.transactions.pagination.total).toBe(1);
    const outside = await (await agentGraphql(token, "{ me { phone_number } }")).json();
    expect(outside.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    const noScope = await (await agentGraphql(token, "{ wallets { id } }")).json();
    expect(noScope.errors[0].extensions.error_code).toBe("AGT-403-001");
    const uses = (await (await platform.api(`/v0/agent/tokens/${id}/uses`, { jwt: user.jwt })).json()).items;
    expect(uses.map((u: { operation: string; outcome: string }) => [u.operation, u.outcome])).toEqual([
      ["query { wallets }", "AGT-403-001"],
      ["Feed", "ok"],
    ]);
  });

  it("answers the same contract to the user's own JWT", async () => {
    const response = await fetch(`${platform.urls.graphql}/agent`, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": user.jwt }, body: JSON.stringify({ query: "{ me { phone_number } }" }) });
    expect((await response.json()).errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });
});

describe("agent tokens restricted to some wallets", () => {
  it("read only those wallets' transactions, balances and assets, and nothing that spans the whole account", async () => {
    const wallets = (await (await platform.api("/v0/wallets", { jwt: user.jwt })).json()).items as { id: number; type: string }[];
    const other = wallets.find((w) => w.id !== user.wallet_id)!;
    expect(other).toBeDefined();
    const issued = await issue(user.jwt, { name: "one wallet", scopes: ["read:transactions", "read:balances"], wallet_ids: [user.wallet_id] });
    expect(issued.status).toBe(201);
    const { token, wallet_ids } = await issued.json();
    expect(wallet_ids).toEqual([user.wallet_id]);
    const feed = await (await asAgent(token, "/v0/transactions?meta=true")).json();
    expect(feed.items.length).toBeGreaterThan(0);
    expect(feed.items.every((t: { wallet_id: number }) => t.wallet_id === user.wallet_id)).toBe(true);
    expect(feed.meta.transaction_count).toBe(feed.pagination.total);
    expect((await (await asAgent(token, "/v0/wallets")).json()).items.map((w: { id: number }) => w.id)).toEqual([user.wallet_id]);
    expect((await asAgent(token, `/v0/wallets/${user.wallet_id}/assets`)).status).toBe(200);
    expect(await problem(await asAgent(token, `/v0/wallets/${other.id}`))).toEqual({ status: 404, code: "WAL-404-001" });
    expect(await problem(await asAgent(token, `/v0/wallets/${other.id}/assets`))).toEqual({ status: 404, code: "WAL-404-001" });
    for (const path of ["/v0/accounts", "/v0/budgets", "/v0/insights", "/v0/cards"]) expect(await problem(await asAgent(token, path)), path).toEqual({ status: 403, code: "AGT-403-003" });
    expect((await asAgent(token, "/v0/assets")).status).toBe(200);

    // restricted to the other wallet: none of this user's deposits, which went to the first one
    const elsewhere = (await (await issue(user.jwt, { name: "other wallet", scopes: ["read:transactions"], wallet_ids: [other.id] })).json()).token;
    const empty = await (await asAgent(elsewhere, "/v0/transactions?meta=true")).json();
    expect({ total: empty.pagination.total, count: empty.meta.transaction_count }).toEqual({ total: 0, count: 0 });
    expect(await problem(await asAgent(elsewhere, `/v0/transactions/${feed.items[0].id}`))).toEqual({ status: 404, code: "TXN-404-001" });
  });

  it("cannot be restricted to another user's wallet", async () => {
    const stranger = await userWithWallet(platform);
    expect(await problem(await issue(user.jwt, { name: "x", scopes: ["read:balances"], wallet_ids: [stranger.wallet_id] }))).toEqual({ status: 404, code: "WAL-404-001" });
    expect(await problem(await issue(user.jwt, { name: "x", scopes: ["read:balances"], wallet_ids: [] }))).toEqual({ status: 422, code: "GEN-422-001" });
  });
});

describe("agent token management: security", () => {
  it("answers 401 without a credential; a read-only personal access token lists tokens and their uses but issues and revokes none (403 USR-403-001)", async () => {
    const { id } = await agentToken(["read:balances"]);
    const reads: RouteCall[] = [{ path: "/v0/agent/tokens" }, { path: `/v0/agent/tokens/${id}/uses` }];
    const writes: RouteCall[] = [
      { method: "POST", path: "/v0/agent/tokens", json: { name: "probe", scopes: ["read:balances"] } },
      { method: "DELETE", path: `/v0/agent/tokens/${id}` },
    ];
    await expectEachProblem(platform, [...reads, ...writes], {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, user.jwt);
    for (const { path } of reads) expect((await platform.api(path, { pat })).status, path).toBe(200);
    await expectEachProblem(platform, writes, { pat }, { status: 403, code: "USR-403-001" });
  });
});
