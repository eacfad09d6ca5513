import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentsDb } from "../../../subgraphs/agents/db.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { expectEachProblem, readOnlyPat, statusAndCode as problem, type RouteCall } from "../../support/route-cases.ts";

// Issue 13: connectors. A sandbox exchange's balances and trades feed the ledger once each and
// show in the accounts view; spec 3.6's connection states move through one table.
let platform: TestPlatform;
let agentsDb: AgentsDb;

beforeAll(async () => {
  platform = await startTestPlatform();
  agentsDb = (platform.subgraphs.agents as any).services.db;
});
afterAll(() => platform?.stop());

const GOOD = { api_key: "sbx_alice123", api_secret: "s3cret-s3cret-s3cret" };
const connect = (jwt: string, credentials: Record<string, unknown>, connector_id = "con_sandbox_exchange") => platform.api("/v0/user/me/connectors", { method: "POST", jwt, json: { connector_id, credentials } });
const connectWithCode = (jwt: string, connector_id: string, code: string) => platform.api("/v0/user/me/connectors", { method: "POST", jwt, json: { connector_id, code } });
const action = (jwt: string, id: string, name: string, json?: unknown) => platform.api(`/v0/user/me/connectors/${id}/${name}`, { method: "POST", jwt, ...(json !== undefined && { json }) });

describe("connectors", () => {
  it("lists the catalogue by type", async () => {
    const { jwt } = await platform.createUser();
    const all = (await (await platform.api("/v0/connectors", { jwt })).json()).items;
    expect(all.map((c: { id: string; type: string }) => `${c.type}:${c.id}`).sort()).toEqual(["accounting:con_sandbox_books", "bank:con_open_banking", "exchange:con_sandbox_exchange", "tax:con_sandbox_tax"]);
    expect((await (await platform.api("/v0/connectors?type=exchange", { jwt })).json()).items.map((c: { id: string }) => c.id)).toEqual(["con_sandbox_exchange"]);
    expect(await problem(await platform.api("/v0/connectors/con_nothing", { jwt }))).toEqual({ status: 404, code: "CON-404-001" });
  });

  it("connects a sandbox exchange whose balances show in the accounts and whose trades are in the feed, once however often it syncs", async () => {
    const { jwt } = await platform.createUser();
    const response = await connect(jwt, GOOD);
    expect(response.status).toBe(201);
    const connection = await response.json();
    expect(connection).toMatchObject({ status: "connected", last_synced_at: expect.any(Number), last_error: null, connector: { type: "exchange" } });
    expect(JSON.stringify(connection)).not.toContain("s3cret");
    expect((await agentsDb.userConnector.findUniqueOrThrow({ where: { id: connection.id } })).credentials_sealed).not.toContain("s3cret");

    expect((await action(jwt, connection.id, "sync")).status).toBe(200);
    const accounts = await (await platform.api("/v0/accounts", { jwt })).json();
    const exchange = accounts.items.find((item: { source_id: string }) => item.source_id === connection.id);
    expect(exchange).toMatchObject({ source: "crypto_wallet", name: "Sandbox Exchange", chain_id: null, address: null });
    expect(exchange.balances.map((b: { asset: { symbol: string }; balance: string }) => [b.asset.symbol, b.balance]).sort()).toEqual([["ETH", "600000000000000000"], ["USDC", "1200000000"]]);
    const feed = (await (await platform.api("/v0/transactions?limit=100", { jwt })).json()).items;
    expect(feed.map((t: { type: string }) => t.type).sort()).toEqual(["deposit", "deposit", "swap", "swap"]);

    const disconnected = await (await action(jwt, connection.id, "disconnect")).json();
    expect(disconnected.status).toBe("disconnected");
    expect((await (await platform.api("/v0/accounts", { jwt })).json()).items.some((item: { source_id: string }) => item.source_id === connection.id)).toBe(false);
    expect((await (await platform.api("/v0/transactions?limit=100", { jwt })).json()).items).toHaveLength(4);
    expect(await problem(await action(jwt, connection.id, "sync"))).toEqual({ status: 409, code: "CON-409-001" });
    expect(await problem(await action(jwt, connection.id, "disconnect"))).toEqual({ status: 409, code: "CON-409-001" });
    const back = await (await action(jwt, connection.id, "reconnect", { credentials: GOOD })).json();
    expect(back.status).toBe("connected");
    expect((await (await platform.api("/v0/transactions?limit=100", { jwt })).json()).items).toHaveLength(4);
  });

  it("refuses bad credentials with nothing connected, moves a revoked key to error and back with new credentials, and 404s another user's", async () => {
    const user = await platform.createUser();
    const other = await platform.createUser();
    expect(await problem(await connect(user.jwt, { api_key: "nope", api_secret: "short" }))).toEqual({ status: 422, code: "CON-422-001" });
    expect(await problem(await connect(user.jwt, {}, "con_open_banking"))).toEqual({ status: 422, code: "CON-422-002" });
    expect((await (await platform.api("/v0/user/me/connectors", { jwt: user.jwt })).json()).items).toEqual([]);

    const failing = await (await connect(user.jwt, { api_key: "sbx_revoked01", api_secret: "s3cret-s3cret-s3cret" })).json();
    expect(failing).toMatchObject({ status: "error", last_error: expect.stringContaining("revoked"), last_synced_at: null });
    expect(await problem(await action(user.jwt, failing.id, "reconnect", { credentials: { api_key: "bad" } }))).toEqual({ status: 422, code: "CON-422-001" });
    const fixed = await (await action(user.jwt, failing.id, "reconnect", { credentials: GOOD })).json();
    expect(fixed).toMatchObject({ status: "connected", last_error: null, last_synced_at: expect.any(Number) });

    for (const response of [
      await platform.api(`/v0/user/me/connectors/${fixed.id}`, { jwt: other.jwt }),
      await action(other.jwt, fixed.id, "sync"),
      await action(other.jwt, fixed.id, "disconnect"),
      await action(other.jwt, fixed.id, "reconnect", { credentials: GOOD }),
    ])
      expect(await problem(response)).toEqual({ status: 404, code: "CON-404-002" });
  });

  it("connects bookkeeping and tax services with an authorization code, and each sync exports the ledger's new transactions once (tax: taxable events only)", async () => {
    const user = await platform.createUser();
    const wallets = (await (await platform.api("/v0/wallets", { jwt: user.jwt })).json()).items as { id: number; type: string }[];
    const wallet = wallets.find((w) => w.type === "EOA")!.id;
    const move = (path: string, json: Record<string, unknown>) => platform.api(path, { method: "POST", jwt: user.jwt, json: { wallet_id: wallet, asset: "USDC", ...json } });
    expect((await move("/v0/sandbox/deposits", { amount: "100" })).status).toBe(201);
    expect((await move("/v0/sandbox/payments", { amount: "2", type: "fee" })).status).toBe(201);

    expect(await problem(await connectWithCode(user.jwt, "con_sandbox_books", "not-a-code"))).toEqual({ status: 422, code: "CON-422-001" });
    expect(await problem(await connectWithCode(user.jwt, "con_sandbox_books", "sbx_code_denied1"))).toEqual({ status: 422, code: "CON-422-001" });
    expect(await problem(await connectWithCode(user.jwt, "con_sandbox_exchange", "sbx_code_abcdef"))).toEqual({ status: 422, code: "CON-422-001" });
    const books = await (await connectWithCode(user.jwt, "con_sandbox_books", "sbx_code_abcdef")).json();
    expect(books).toMatchObject({ status: "connected", last_sync: { exported: 2 }, connector: { type: "accounting", auth: "oauth" } });
    expect(JSON.stringify(books)).not.toContain("sbxat_");
    const tax = await (await connectWithCode(user.jwt, "con_sandbox_tax", "sbx_code_ghijkl")).json();
    expect(tax.last_sync).toEqual({ exported: 1 });

    expect((await move("/v0/sandbox/payments", { amount: "3", type: "transfer" })).status).toBe(201);
    expect((await (await action(user.jwt, books.id, "sync")).json()).last_sync).toEqual({ exported: 1 });
    expect((await (await action(user.jwt, books.id, "sync")).json()).last_sync).toEqual({ exported: 0 });
    expect((await (await action(user.jwt, tax.id, "sync")).json()).last_sync).toEqual({ exported: 0 });
    // outbound services hold no money: nothing of theirs shows in the accounts
    expect((await (await platform.api("/v0/accounts", { jwt: user.jwt })).json()).items.map((item: { source_id: string }) => item.source_id)).not.toContain(books.id);
  });
});

describe("connectors: errors and security", () => {
  it("reads one connector of the catalogue, and answers 404 CON-404-001 to connect one it does not offer", async () => {
    const { jwt } = await platform.createUser();
    const one = await platform.api("/v0/connectors/con_sandbox_exchange", { jwt });
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ id: "con_sandbox_exchange", type: "exchange" });
    expect(await problem(await connect(jwt, GOOD, "con_nothing"))).toEqual({ status: 404, code: "CON-404-001" });
  });

  it("answers 401 without a credential; a read-only personal access token reads connectors and connections but connects, syncs and disconnects nothing (403 USR-403-001)", async () => {
    const { jwt } = await platform.createUser();
    const { id } = await (await connect(jwt, GOOD)).json();
    const reads: RouteCall[] = [{ path: "/v0/connectors" }, { path: "/v0/connectors/con_sandbox_exchange" }, { path: "/v0/user/me/connectors" }, { path: `/v0/user/me/connectors/${id}` }];
    const writes: RouteCall[] = [
      { method: "POST", path: "/v0/user/me/connectors", json: { connector_id: "con_sandbox_exchange", credentials: GOOD } },
      { method: "POST", path: `/v0/user/me/connectors/${id}/sync` },
      { method: "POST", path: `/v0/user/me/connectors/${id}/disconnect` },
      { method: "POST", path: `/v0/user/me/connectors/${id}/reconnect`, json: { credentials: GOOD } },
    ];
    await expectEachProblem(platform, [...reads, ...writes], {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, jwt);
    for (const { path } of reads) expect((await platform.api(path, { pat })).status, path).toBe(200);
    await expectEachProblem(platform, writes, { pat }, { status: 403, code: "USR-403-001" });
  });
});
