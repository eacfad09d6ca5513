import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import type { MovementInput } from "../../../subgraphs/finance/transactions/record-movement.ts";
import { bookMovement } from "../../support/finance-db.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { ensureAsset, userWithWallet } from "../../support/finance.ts";
import { parse } from "graphql";
import { transactionRoutes } from "../../../rest-adapter/routes/transactions.ts";
import { answersInEpochMs, applyTimestampFormat } from "../../../rest-adapter/route-kit/timestamps.ts";

// Issue 9, the transaction feed: GET /v0/transactions (filters, pages, meta), amount_usd at the
// price of its time, PATCH with merchant rules, and User.transactions through /graphql.

let platform: TestPlatform;
let db: FinanceDb;

const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const CARD = "crd_feed_test";

type Seed = Partial<MovementInput> & { at: number };


const usd = { currency: "USD", decimals: 2 };
const card = { kind: "card", id: CARD } as const;

/** Eight movements of one user: types, directions, sources, statuses, categories and two at the same instant. */
async function seededUser() {
  const user = await userWithWallet(platform);
  const s = (input: Seed) => bookMovement(db, user.id, user.wallet_id, input);
  const rows = {
    deposit: await s({ at: T0, amount: "0.1", amount_usd: "0.1" }),
    restaurant: await s({ at: T0 + HOUR, type: "card_purchase", direction: "out", amount: "12.50", unit: usd, source: card, category: "restaurants", amount_usd: "12.5", merchant: { name: "Cafe Nero", mcc: "5814" } }),
    groceries: await s({ at: T0 + 2 * HOUR, type: "card_purchase", direction: "out", status: "pending", amount: "7.5", unit: usd, source: card, category: "groceries", amount_usd: "7.5" }),
    withdrawal: await s({ at: T0 + 3 * HOUR, type: "withdrawal", direction: "out", amount: "0.2", amount_usd: "0.2" }),
    failed: await s({ at: T0 + 4 * HOUR, type: "card_purchase", direction: "out", status: "failed", amount: "100", unit: usd, source: card, category: "restaurants", amount_usd: "100" }),
    second_deposit: await s({ at: T0 + 5 * HOUR, amount: "0.2", amount_usd: "0.2" }),
    fee: await s({ at: T0 + 5 * HOUR, type: "fee", direction: "out", amount: "0.05", amount_usd: null }),
    interest: await s({ at: T0 + 6 * HOUR, type: "interest", amount: "0.000000000000000001", amount_usd: "0.000000000000000003" }),
  };
  return { ...user, rows };
}

function feed(jwt: string, query = "", headers: Record<string, string> = {}) {
  return platform.api(`/v0/transactions${query ? `?${query}` : ""}`, { jwt, headers });
}

async function ids(jwt: string, query: string): Promise<string[]> {
  const response = await feed(jwt, query);
  expect(response.status).toBe(200);
  return (await response.json()).items.map((item: { id: string }) => item.id);
}

let A: Awaited<ReturnType<typeof seededUser>>;

beforeAll(async () => {
  platform = await startTestPlatform();
  db = (platform.subgraphs.finance as any).services.db;
  await ensureAsset(db, "ETH", 18);
  await ensureAsset(db, "USDC", 6);
  A = await seededUser();
  // another user's movements at the same instants and amounts: never in A's feed or meta
  const other = await userWithWallet(platform);
  await bookMovement(db, other.id, other.wallet_id, { at: T0, amount: "0.1", amount_usd: "0.1" });
  await bookMovement(db, other.id, other.wallet_id, { at: T0 + HOUR, type: "card_purchase", direction: "out", amount: "1", unit: usd, source: { kind: "card", id: CARD }, category: "restaurants", amount_usd: "1" });
});
afterAll(() => platform?.stop());

describe("GET /v0/transactions", () => {
  it("lists only the caller's transactions, newest first, id descending at the same instant", async () => {
    const response = await feed(A.jwt);
    expect(response.status).toBe(200);
    const body = await response.json();
    const r = A.rows;
    const tie = [r.second_deposit.id, r.fee.id].sort().reverse();
    expect(body.items.map((item: { id: string }) => item.id)).toEqual([r.interest.id, ...tie, r.failed.id, r.withdrawal.id, r.groceries.id, r.restaurant.id, r.deposit.id]);
    expect(body.pagination).toEqual({ limit: 50, offset: 0, total: 8 });
    expect(body.meta).toBeUndefined();
    expect(body._links.self.href).toContain("/v0/transactions?");
    expect(body._links.next).toBeUndefined();
    expect(body._links.prev).toBeUndefined();
    expect(body.items[0]).toMatchObject({ type: "interest", amount: "0.000000000000000001", amount_usd: "0.000000000000000003", note: null });
  });

  it("applies each filter", async () => {
    const r = A.rows;
    const only = async (query: string, expected: { id: string }[]) => expect((await ids(A.jwt, query)).sort()).toEqual(expected.map((row) => row.id).sort());
    await only("type=deposit", [r.deposit, r.second_deposit]);
    await only("status=failed", [r.failed]);
    await only("status=pending", [r.groceries]);
    await only("direction=in", [r.deposit, r.second_deposit, r.interest]);
    await only(`wallet_id=${A.wallet_id}`, [r.deposit, r.withdrawal, r.second_deposit, r.fee, r.interest]);
    await only(`card_id=${CARD}`, [r.restaurant, r.groceries, r.failed]);
    await only("category=restaurants", [r.restaurant, r.failed]);
    await only("category=travel", []);
    await only("amount_min=12.5", [r.restaurant, r.failed]);
    await only("amount_max=0.05", [r.fee, r.interest]);
    // a parameter the route does not document is ignored, never a 500 (found by the fuzz suite)
    await only("type=deposit&unknown=%3D%5B&%5Dodd%40=x", [r.deposit, r.second_deposit]);
  });

  it("compares amounts exactly as decimals: 0.1 equals 0.10, one unit of the 18th decimal counts", async () => {
    const r = A.rows;
    expect(await ids(A.jwt, "amount_min=0.10&amount_max=0.1")).toEqual([r.deposit.id]);
    expect(await ids(A.jwt, "amount_min=0.1&amount_max=0.100000000000000000")).toEqual([r.deposit.id]);
    expect(await ids(A.jwt, "amount_min=0.100000000000000001&amount_max=1")).toEqual([r.second_deposit.id, r.withdrawal.id]);
    expect(await ids(A.jwt, "amount_min=0.099999999999999999&amount_max=0.1")).toEqual([r.deposit.id]);
    expect(await ids(A.jwt, "amount_max=0.000000000000000001")).toEqual([r.interest.id]);
    expect(await ids(A.jwt, "amount_max=0")).toEqual([]);
  });

  it("takes period_start inclusive and period_end exclusive, in epoch ms or ISO 8601", async () => {
    const r = A.rows;
    expect(await ids(A.jwt, `period_start=${T0 + HOUR}&period_end=${T0 + 4 * HOUR}`)).toEqual([r.withdrawal.id, r.groceries.id, r.restaurant.id]);
    expect(await ids(A.jwt, `period_end=${T0}`)).toEqual([]);
    expect(await ids(A.jwt, `period_end=${T0 + 1}`)).toEqual([r.deposit.id]);
    expect(await ids(A.jwt, `period_start=${T0 + 6 * HOUR}`)).toEqual([r.interest.id]);
    expect(await ids(A.jwt, `period_start=${T0 + 6 * HOUR + 1}`)).toEqual([]);
    expect(await ids(A.jwt, "period_start=2026-01-01T01:00:00Z&period_end=2026-01-01T02:00:00Z")).toEqual([r.restaurant.id]);
  });

  it("combines filters with AND", async () => {
    const r = A.rows;
    expect(await ids(A.jwt, `direction=out&card_id=${CARD}&status=pending`)).toEqual([r.groceries.id]);
    expect(await ids(A.jwt, `type=card_purchase&category=restaurants&period_start=${T0 + 2 * HOUR}`)).toEqual([r.failed.id]);
    expect(await ids(A.jwt, `direction=in&wallet_id=${A.wallet_id}&amount_min=0.1&period_end=${T0 + 6 * HOUR}`)).toEqual([r.second_deposit.id, r.deposit.id]);
    expect(await ids(A.jwt, "direction=in&category=restaurants")).toEqual([]);
  });

  it("walks pages with limit 2: every row once, with next and prev links", async () => {
    const all = await ids(A.jwt, "limit=200");
    const seen: string[] = [];
    let next: string | undefined = "/v0/transactions?limit=2";
    let pages = 0;
    while (next) {
      const response = await platform.api(next.replace(/^https?:\/\/[^/]+/, ""), { jwt: A.jwt });
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.pagination).toMatchObject({ limit: 2, offset: pages * 2, total: 8 });
      if (pages > 0) expect(body._links.prev.href).toContain(`offset=${(pages - 1) * 2}`);
      else expect(body._links.prev).toBeUndefined();
      seen.push(...body.items.map((item: { id: string }) => item.id));
      next = body._links.next?.href;
      pages += 1;
    }
    expect(pages).toBe(4);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(8);
    expect(await ids(A.jwt, "limit=2&offset=8")).toEqual([]);
  });

  it("refuses a limit over 200 and other bad input with 422", async () => {
    for (const query of ["limit=201", "limit=0", "offset=-1", "type=gift", "status=done", "direction=sideways", "category=fun", "amount_min=abc", "amount_min=-1", "amount_max=1e3", "amount_min=0.1234567890123456789", "period_start=yesterday", "wallet_id=x", "meta=maybe"]) {
      const response = await feed(A.jwt, query);
      expect({ query, status: response.status }).toEqual({ query, status: 422 });
      expect((await response.json()).error_code).toBe("GEN-422-001");
    }
    expect((await feed(A.jwt, "limit=200")).status).toBe(200);
  });

  it("answers meta over the whole filtered set, summed exactly in SQL", async () => {
    const response = await feed(A.jwt, "meta=true&limit=1");
    const body = await response.json();
    expect(body.items).toHaveLength(1);
    expect(body.meta).toEqual({
      transaction_count: 8,
      date_range: { earliest: T0, latest: T0 + 6 * HOUR },
      // in: 0.1 + 0.2 + 0.000000000000000003 (a float would say 0.30000000000000004); the failed 100 and the unpriced fee count nothing
      cashflow: { gross_in: "0.300000000000000003", gross_out: "20.2", net: "-19.899999999999999997" },
      categories: [
        { category: "restaurants", total_amount: "12.5", percentage_of_total: 61.88 },
        { category: "groceries", total_amount: "7.5", percentage_of_total: 37.13 },
        // an uncategorised outflow counts as other
        { category: "other", total_amount: "0.2", percentage_of_total: 0.99 },
      ],
    });
    const sum = body.meta.categories.reduce((total: number, c: { percentage_of_total: number }) => total + c.percentage_of_total, 0);
    expect(Math.abs(sum - 100)).toBeLessThan(0.05);

    const filtered = await (await feed(A.jwt, `meta=true&card_id=${CARD}&limit=1`)).json();
    expect(filtered.meta).toMatchObject({
      transaction_count: 3,
      date_range: { earliest: T0 + HOUR, latest: T0 + 4 * HOUR },
      cashflow: { gross_in: "0", gross_out: "20", net: "-20" },
      categories: [
        { category: "restaurants", total_amount: "12.5", percentage_of_total: 62.5 },
        { category: "groceries", total_amount: "7.5", percentage_of_total: 37.5 },
      ],
    });

    const empty = await (await feed(A.jwt, "meta=true&category=travel")).json();
    expect(empty.meta).toEqual({ transaction_count: 0, date_range: { earliest: null, latest: null }, cashflow: { gross_in: "0", gross_out: "0", net: "0" }, categories: [] });
    expect((await (await feed(A.jwt, "meta=false")).json()).meta).toBeUndefined();
  });

  it("formats item timestamps as ISO 8601 on request", async () => {
    const body = await (await feed(A.jwt, "limit=1&meta=true", { "x-timestamp-format": "iso8601" })).json();
    expect(body.items[0].timestamp).toBe("2026-01-01T06:00:00Z");
    expect(body.items[0].status_history[0].changed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it("answers each X-Timestamp-Format as the timestamp pass makes it, to the byte, though the route skips the epoch-ms pass", async () => {
    const route = transactionRoutes.find((r) => r.operationId === "listTransactions")!;
    expect(answersInEpochMs(platform.gateway.schema, parse(route.operation))).toBe(true);
    const text = async (headers: Record<string, string>) => {
      const response = await feed(A.jwt, "limit=3&meta=true", headers);
      expect(response.status).toBe(200);
      return { body: await response.text(), type: response.headers.get("content-type"), length: response.headers.get("content-length") };
    };
    const epoch = await text({});
    const page = JSON.parse(epoch.body);
    expect(page.items[0].timestamp).toBe(T0 + 6 * HOUR);
    // the answer the pass would have made of the same page: the same bytes, headers alike
    expect(epoch.body).toBe(JSON.stringify(applyTimestampFormat(page, "epoch_ms")));
    for (const value of ["epoch_ms", "ISO8601", "iso"]) expect(await text({ "x-timestamp-format": value })).toEqual(epoch);
    const iso = await text({ "x-timestamp-format": "iso8601" });
    expect(iso.body).toBe(JSON.stringify(applyTimestampFormat(page, "iso8601")));
    expect(iso.type).toBe(epoch.type);
  });

  it("shows a user without transactions an empty feed, and refuses a missing credential (401)", async () => {
    const fresh = await userWithWallet(platform);
    expect(await (await feed(fresh.jwt, "meta=true")).json()).toMatchObject({ items: [], pagination: { total: 0 }, meta: { transaction_count: 0, categories: [] } });
    const anonymous = await platform.api("/v0/transactions");
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error_code).toBe("USR-401-001");
  });
});

describe("User.transactions through /graphql", () => {
  it("answers the same page and meta, and is tagged for agents", async () => {
    const response = await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": A.jwt },
      body: JSON.stringify({
        query: `query ($filter: TransactionFilter) { me { transactions(filter: $filter, page: { limit: 2 }) { items { id amount } pagination { total } meta { transaction_count cashflow { gross_out } } } } }`,
        variables: { filter: { direction: "out", period_end: T0 + 4 * HOUR } },
      }),
    });
    const { data, errors } = await response.json();
    expect(errors).toBeUndefined();
    expect(data.me.transactions).toEqual({
      items: [
        { id: A.rows.withdrawal.id, amount: "0.2" },
        { id: A.rows.groceries.id, amount: "7.5" },
      ],
      pagination: { total: 3 },
      meta: { transaction_count: 3, cashflow: { gross_out: "20.2" } },
    });
    const supergraph = readFileSync(new URL("../../../gateway/supergraph.graphql", import.meta.url), "utf8");
    expect(supergraph).toMatch(/transactions\(.*\): TransactionPage! .*@tag\(name: "agent"\)/);
    expect(supergraph).toMatch(/meta: TransactionMeta! .*@tag\(name: "agent"\)/);
  });
});

describe("amount_usd at the price of its time", () => {
  it("fills a sandbox deposit's amount_usd from the asset's price, exactly; null without a price", async () => {
    const { jwt, wallet_id } = await userWithWallet(platform);
    const deposit = (asset: string, amount: string) => platform.api("/v0/sandbox/deposits", { method: "POST", jwt, json: { wallet_id, asset, amount } });
    expect(await (await deposit("USDC", "25.50")).json()).toMatchObject({ amount: "25.5", amount_usd: "25.5" });
    // ETH at the default 3000.00: 0.000000000000000001 ETH is 0.000000000000003 USD, no float rounding
    expect(await (await deposit("ETH", "0.000000000000000001")).json()).toMatchObject({ amount_usd: "0.000000000000003" });
    expect(await (await deposit("ETH", "1.1")).json()).toMatchObject({ amount_usd: "3300" });
    await ensureAsset(db, "NOPRICE", 18);
    expect(await (await deposit("NOPRICE", "1")).json()).toMatchObject({ amount_usd: null });
  });

  it("computes amount_usd from usd_price when the caller gives one", async () => {
    const { id, wallet_id } = await userWithWallet(platform);
    const row = await bookMovement(db, id, wallet_id, { at: T0, amount: "0.3", usd_price: "0.1", amount_usd: undefined });
    expect(row.amount_usd).toBe("0.03");
  });
});

describe("PATCH /v0/transactions/{transaction_id}", () => {
  const patch = (jwt: string, id: string, body: unknown) => platform.api(`/v0/transactions/${id}`, { method: "PATCH", jwt, json: body });

  it("sets the category and note, clears them with null, and leaves absent fields alone", async () => {
    const user = await userWithWallet(platform);
    const row = await bookMovement(db, user.id, user.wallet_id, { at: T0, type: "withdrawal", direction: "out", amount: "1" });
    const response = await patch(user.jwt, row.id, { category: "travel", note: "train to Lyon" });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ id: row.id, category: "travel", note: "train to Lyon" });
    expect(body.updated_at).toBeGreaterThanOrEqual(body.created_at);
    expect(body._links.self.href).toContain(`/v0/transactions/${row.id}`);
    expect(await (await patch(user.jwt, row.id, { note: null })).json()).toMatchObject({ category: "travel", note: null });
    expect(await (await patch(user.jwt, row.id, { category: null })).json()).toMatchObject({ category: null, note: null });
    expect(await (await platform.api(`/v0/transactions/${row.id}`, { jwt: user.jwt })).json()).toMatchObject({ category: null });
  });

  it("refuses another user's transaction (TXN-404-001), bad input (422), no credential (401), a read-only PAT (403)", async () => {
    const owner = await userWithWallet(platform);
    const other = await userWithWallet(platform);
    const row = await bookMovement(db, owner.id, owner.wallet_id, { at: T0, type: "withdrawal", direction: "out", amount: "1" });
    const hidden = await patch(other.jwt, row.id, { category: "travel" });
    expect(hidden.status).toBe(404);
    expect((await hidden.json()).error_code).toBe("TXN-404-001");
    expect((await patch(owner.jwt, "txn_missing", { note: "x" })).status).toBe(404);
    for (const body of [{}, { category: "fun" }, { note: "x".repeat(501) }, { note: 5 }]) {
      const response = await patch(owner.jwt, row.id, body);
      expect({ body, status: response.status }).toEqual({ body, status: 422 });
      expect((await response.json()).error_code).toBe("GEN-422-001");
    }
    expect((await platform.api(`/v0/transactions/${row.id}`, { method: "PATCH", json: { note: "x" } })).status).toBe(401);
    const token = await (await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt: owner.jwt, json: { name: "ro", scopes: ["read"] } })).json();
    const readOnly = await platform.api(`/v0/transactions/${row.id}`, { method: "PATCH", pat: token.token, json: { note: "x" } });
    expect(readOnly.status).toBe(403);
    expect((await readOnly.json()).error_code).toBe("USR-403-001");
    expect(await db.transaction.findUnique({ where: { id: row.id }, select: { category: true, note: true } })).toEqual({ category: null, note: null });
  });

  it("remembers the category for the merchant's later transactions of the same user, above what the MCC says", async () => {
    const user = await userWithWallet(platform);
    const other = await userWithWallet(platform);
    const purchase = (u: { id: string; wallet_id: number }, name: string, extra: Partial<Seed> = {}) =>
      bookMovement(db, u.id, u.wallet_id, { at: T0, type: "card_purchase", direction: "out", amount: "3", unit: usd, source: card, merchant: { name, mcc: "5814" }, ...extra });
    const first = await purchase(user, "Corner Coffee", { category: "restaurants" });
    expect((await patch(user.jwt, first.id, { category: "entertainment" })).status).toBe(200);

    expect((await purchase(user, "  CORNER coffee ")).category).toBe("entertainment");
    expect((await purchase(user, "Corner Coffee", { category: "groceries" })).category).toBe("groceries");
    // without a rule of the user's, the MCC (5814, fast food) decides; without either, none
    expect((await purchase(user, "Another Place")).category).toBe("restaurants");
    expect((await purchase(other, "Corner Coffee")).category).toBe("restaurants");
    expect((await purchase(user, "No Code Shop", { merchant: { name: "No Code Shop", mcc: null } })).category).toBeNull();
    // earlier transactions keep their own category
    expect((await db.transaction.findUnique({ where: { id: first.id } }))!.category).toBe("entertainment");

    // null forgets the merchant's rule
    expect((await patch(user.jwt, first.id, { category: null })).status).toBe(200);
    expect((await purchase(user, "Corner Coffee")).category).toBe("restaurants");
  });
});
