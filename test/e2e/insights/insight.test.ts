import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { ensureAsset, userWithWallet } from "../../support/finance.ts";
import { agentToken, expectEachProblem, type RouteCall } from "../../support/route-cases.ts";

// Issue 9: the sandbox payment helper (POST /v0/sandbox/payments) and insights over REST and
// GraphQL: GET /v0/insights, GET /v0/insights/{id}, POST /v0/insights/{id}/dismiss,
// POST /v0/insights/refresh, and the durable job that computes them after ledger changes.

let platform: TestPlatform;
let db: FinanceDb;
const DAY = 86_400_000;

beforeAll(async () => {
  platform = await startTestPlatform();
  db = (platform.subgraphs.finance as any).services.db;
  await ensureAsset(db, "USDC", 6);
});
afterAll(() => platform?.stop());

function pay(jwt: string, body: Record<string, unknown>, key?: string) {
  return platform.api("/v0/sandbox/payments", { method: "POST", jwt, json: body, ...(key !== undefined && { headers: { "idempotency-key": key } }) });
}

/** A user whose wallet holds 1000 USDC and who paid Netflix 15.99 monthly three times, the latest 2 days ago. */
async function subscriber() {
  const user = await userWithWallet(platform);
  expect((await platform.api("/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet_id, asset: "USDC", amount: "1000" } })).status).toBe(201);
  for (const days of [62, 32, 2]) {
    const response = await pay(user.jwt, { wallet_id: user.wallet_id, asset: "USDC", amount: "15.99", merchant: { name: "Netflix", mcc: "4899" }, timestamp: Date.now() - days * DAY });
    expect(response.status).toBe(201);
  }
  return user;
}

const insights = (jwt: string, query = "") => platform.api(`/v0/insights${query}`, { jwt });
const refresh = (jwt: string) => platform.api("/v0/insights/refresh", { method: "POST", jwt });

describe("POST /v0/sandbox/payments", () => {
  it("books a completed outgoing payment, categorised by its MCC, backdated when asked", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    await platform.api("/v0/sandbox/deposits", { method: "POST", jwt, json: { wallet_id, asset: "USDC", amount: "100" } });
    const at = Date.now() - 45 * DAY;
    const response = await pay(jwt, { wallet_id, asset: "usdc", amount: "12.5", merchant: { name: "Corner Bistro", mcc: "5812" }, timestamp: at });
    expect(response.status).toBe(201);
    const payment = await response.json();
    expect(payment).toMatchObject({ type: "transfer", direction: "out", status: "completed", amount: "12.5", asset: { symbol: "USDC" }, category: "restaurants", merchant: { name: "Corner Bistro", mcc: "5812" }, timestamp: at, wallet_id });
    expect(payment.amount_usd).toBe("12.5");
    const fee = await (await pay(jwt, { wallet_id, asset: "USDC", amount: "1", type: "fee", category: "other" })).json();
    expect(fee).toMatchObject({ type: "fee", category: "other" });
    const accounts = await (await platform.api(`/v0/wallets/${wallet_id}/assets`, { jwt })).json();
    expect(accounts.assets.find((entry: { asset: { symbol: string } }) => entry.asset.symbol === "USDC").balance).toBe("86500000");
  });

  it("refuses overdrafts (409), out-of-range dates and types (422), another user's wallet (404), and honours Idempotency-Key", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    await platform.api("/v0/sandbox/deposits", { method: "POST", jwt, json: { wallet_id, asset: "USDC", amount: "10" } });
    const over = await pay(jwt, { wallet_id, asset: "USDC", amount: "10.01" });
    expect(over.status).toBe(409);
    expect((await over.json()).error_code).toBe("TXN-409-002");
    for (const body of [{ timestamp: Date.now() + DAY }, { timestamp: Date.now() - 401 * DAY }, { type: "deposit" }, { merchant: { name: "X", mcc: "12" } }, { category: "rent" }]) {
      const refused = await pay(jwt, { wallet_id, asset: "USDC", amount: "1", ...body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect((await refused.json()).error_code).toBe("GEN-422-001");
    }
    const other = await userWithWallet(platform);
    const foreign = await pay(other.jwt, { wallet_id, asset: "USDC", amount: "1" });
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error_code).toBe("WAL-404-001");

    const first = await pay(jwt, { wallet_id, asset: "USDC", amount: "4" }, "pay-once");
    const again = await pay(jwt, { wallet_id, asset: "USDC", amount: "4" }, "pay-once");
    expect([first.status, again.status]).toEqual([201, 201]);
    expect((await again.json()).id).toBe((await first.json()).id);
    expect((await pay(jwt, { wallet_id, asset: "USDC", amount: "5" }, "pay-once")).status).toBe(422);
    expect(await db.transaction.count({ where: { wallet_id, direction: "out" } })).toBe(1);
  });
});

describe("insights", () => {
  it("are computed by the background job after new transactions, without asking", async () => {
    const { jwt } = await subscriber();
    let items: { type: string }[] = [];
    for (let attempt = 0; attempt < 40 && items.length === 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      items = (await (await insights(jwt)).json()).items;
    }
    expect(items).toMatchObject([{ type: "recurring_charge", status: "active", title: "Netflix charges you monthly" }]);
  });

  it("list, read, refresh and dismiss; a dismissed finding does not come back", async () => {
    const { jwt } = await subscriber();
    const refreshed = await refresh(jwt);
    expect(refreshed.status).toBe(200);
    const page = await refreshed.json();
    expect(page.pagination).toEqual({ limit: 50, offset: 0, total: 1 });
    const [insight] = page.items;
    expect(insight).toMatchObject({
      type: "recurring_charge",
      severity: "info",
      status: "active",
      data: { merchant: "Netflix", cadence: "monthly", currency: "USDC", typical_amount: "15.99", occurrences: 3, category: "entertainment" },
      resolved_at: null,
      dismissed_at: null,
    });
    expect(insight.id).toMatch(/^ins_[0-9a-z]{26}$/);
    expect(typeof insight.data.last_charge_at).toBe("number");

    const read = await platform.api(`/v0/insights/${insight.id}`, { jwt, headers: { "x-timestamp-format": "iso8601" } });
    expect(read.status).toBe(200);
    const iso = await read.json();
    expect(iso.created_at).toMatch(/Z$/);
    expect(iso.data.last_charge_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(iso._links.dismiss).toMatchObject({ method: "POST" });

    // computing again does not repeat it
    await refresh(jwt);
    expect((await (await insights(jwt, "?status=all")).json()).pagination.total).toBe(1);

    const dismissed = await platform.api(`/v0/insights/${insight.id}/dismiss`, { method: "POST", jwt });
    expect(dismissed.status).toBe(200);
    const body = await dismissed.json();
    expect(body).toMatchObject({ id: insight.id, status: "dismissed" });
    expect(typeof body.dismissed_at).toBe("number");
    expect(body._links.dismiss).toBeUndefined();
    expect((await (await platform.api(`/v0/insights/${insight.id}/dismiss`, { method: "POST", jwt })).json()).dismissed_at).toBe(body.dismissed_at);

    expect((await (await refresh(jwt)).json()).items).toEqual([]);
    expect((await (await insights(jwt, "?status=dismissed")).json()).items.map((one: { id: string }) => one.id)).toEqual([insight.id]);
    expect((await (await insights(jwt, "?type=spending_spike&status=all")).json()).items).toEqual([]);
  });

  it("pages with next and prev links", async () => {
    const { jwt, wallet_id } = await subscriber();
    for (const [name, amount] of [["Spotify", "9.99"], ["Gym", "30"]] as const)
      for (const days of [61, 31, 1]) await pay(jwt, { wallet_id, asset: "USDC", amount, merchant: { name, mcc: "7997" }, timestamp: Date.now() - days * DAY });
    await refresh(jwt);
    const first = await (await insights(jwt, "?type=recurring_charge&limit=2")).json();
    expect(first.pagination).toEqual({ limit: 2, offset: 0, total: 3 });
    expect(first._links.next.href).toContain("offset=2");
    expect(first._links.next.href).toContain("type=recurring_charge");
    expect(first._links.prev).toBeUndefined();
    const second = await (await platform.api(new URL(first._links.next.href).pathname + new URL(first._links.next.href).search, { jwt })).json();
    expect(second.items).toHaveLength(1);
    expect(second._links.prev.href).toContain("offset=0");
    expect(new Set([...first.items, ...second.items].map((one: { id: string }) => one.id)).size).toBe(3);
  });

  it("keep users apart, need a credential, and a PAT with write to refresh or dismiss", async () => {
    const owner = await subscriber();
    const [insight] = (await (await refresh(owner.jwt)).json()).items;
    const other = await platform.createUser();
    for (const [path, method] of [[`/v0/insights/${insight.id}`, "GET"], [`/v0/insights/${insight.id}/dismiss`, "POST"], ["/v0/insights/ins_missing", "GET"]] as const) {
      const response = await platform.api(path, { method, jwt: other.jwt });
      expect(response.status).toBe(404);
      expect((await response.json()).error_code).toBe("INS-404-001");
    }
    expect((await (await insights(other.jwt, "?status=all")).json()).items).toEqual([]);

    const anonymous = await platform.api("/v0/insights");
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error_code).toBe("USR-401-001");

    const token = await (await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt: owner.jwt, json: { name: "ro", scopes: ["read"] } })).json();
    expect((await platform.api("/v0/insights", { pat: token.token })).status).toBe(200);
    for (const path of [`/v0/insights/${insight.id}/dismiss`, "/v0/insights/refresh"]) {
      const refused = await platform.api(path, { method: "POST", pat: token.token });
      expect(refused.status).toBe(403);
      expect((await refused.json()).error_code).toBe("USR-403-001");
    }
    expect((await platform.api(`/v0/insights/${insight.id}`, { jwt: owner.jwt }).then((r) => r.json())).status).toBe("active");
  });

  it("refuses unknown filters and page bounds (422)", async () => {
    const { jwt } = await platform.createUser();
    for (const query of ["?type=nope", "?status=open", "?limit=0", "?limit=201", "?offset=-1"]) {
      const response = await insights(jwt, query);
      expect(response.status, query).toBe(422);
      expect((await response.json()).error_code).toBe("GEN-422-001");
    }
  });

  it("are in the supergraph: the user's insights with their wallets in one request", async () => {
    const { jwt } = await subscriber();
    await refresh(jwt);
    const response = await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": jwt },
      body: JSON.stringify({ query: `{ me { wallets { id } insights(filter: { type: recurring_charge }) { items { type data } pagination { total } } } }` }),
    });
    const { data, errors } = await response.json();
    expect(errors).toBeUndefined();
    expect(data.me.wallets.length).toBeGreaterThan(0);
    expect(data.me.insights).toMatchObject({ items: [{ type: "recurring_charge", data: { merchant: "Netflix" } }], pagination: { total: 1 } });
  });
});

describe("insights: agent tokens", () => {
  it("lets an agent token holding read:transactions read insights, not one without it (403 AGT-403-001) nor one restricted to wallets (403 AGT-403-003)", async () => {
    const owner = await subscriber();
    const [insight] = (await (await refresh(owner.jwt)).json()).items;
    const reads: RouteCall[] = [{ path: "/v0/insights" }, { path: `/v0/insights/${insight.id}` }];
    const reader = await agentToken(platform, owner.jwt, ["read:transactions"]);
    for (const { path } of reads) expect((await platform.api(path, { agent: reader })).status, path).toBe(200);
    await expectEachProblem(platform, reads, { agent: await agentToken(platform, owner.jwt, ["read:balances", "write:transfers", "write:strategies"]) }, { status: 403, code: "AGT-403-001" });
    await expectEachProblem(platform, reads, { agent: await agentToken(platform, owner.jwt, ["read:transactions"], [owner.wallet_id]) }, { status: 403, code: "AGT-403-003" });
  });
});
