import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import { calendarPeriod } from "../../../subgraphs/finance/budgets/budget-period.ts";
import { recordMovement, type MovementInput } from "../../../subgraphs/finance/transactions/record-movement.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { cardPurchase } from "../../support/finance-db.ts";
import { agentToken, expectEachProblem, readOnlyPat, type RouteCall } from "../../support/route-cases.ts";

// Issue 9, budgets: CRUD under /v0/budgets, the current period's spent / remaining /
// percentage_used from the ledger, periods in the user's time zone (GET/PATCH /v0/budgets/settings).

let platform: TestPlatform;
let db: FinanceDb;

beforeAll(async () => {
  platform = await startTestPlatform();
  db = (platform.subgraphs.finance as any).services.db;
});
afterAll(() => platform?.stop());

function budgets(jwt: string | undefined, path = "", init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}) {
  return platform.api(`/v0/budgets${path}`, { ...(jwt !== undefined && { jwt }), ...init });
}

async function create(jwt: string, body: Record<string, unknown>) {
  const response = await budgets(jwt, "", { method: "POST", json: body });
  expect(response.status).toBe(201);
  return response.json();
}

/** A card spending of the user, booked straight into the ledger (cards may go below zero here). */
function spend(user_id: string, amount: string, extra: Partial<MovementInput> & { at: Date }) {
  const { at, ...rest } = extra;
  return db.$transaction((tx) => recordMovement(tx, cardPurchase(user_id, amount, at, { category: "groceries", ...rest })));
}

async function errorCode(response: Response): Promise<string> {
  return (await response.json()).error_code;
}

describe("CRUD", () => {
  it("creates, lists, reads, updates and deletes a budget", async () => {
    const { jwt } = await platform.createUser();
    const created = await create(jwt, { category: "groceries", amount: "250.00", period: "monthly" });
    expect(created).toMatchObject({ category: "groceries", amount: "250", currency: "USD", period: "monthly", time_zone: "UTC", spent: "0", remaining: "250", percentage_used: 0 });
    expect(created.id).toMatch(/^bgt_[0-9a-z]{26}$/);
    const month = calendarPeriod("monthly", new Date(), "UTC");
    expect([created.period_start, created.period_end]).toEqual([month.start.getTime(), month.end.getTime()]);
    expect(created._links.self.href).toContain(`/v0/budgets/${created.id}`);
    expect(created._links.transactions.href).toContain("/v0/transactions?category=groceries&direction=out");

    const list = await (await budgets(jwt)).json();
    const { _links, ...fields } = created;
    expect(list.items).toEqual([fields]);
    expect(list._links.create).toMatchObject({ method: "POST" });

    const read = await budgets(jwt, `/${created.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(created);

    const patched = await budgets(jwt, `/${created.id}`, { method: "PATCH", json: { amount: "300.5", currency: "eur" } });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ id: created.id, amount: "300.5", currency: "EUR", category: "groceries", period: "monthly" });

    const weekly = await (await budgets(jwt, `/${created.id}`, { method: "PATCH", json: { period: "weekly" } })).json();
    const week = calendarPeriod("weekly", new Date(), "UTC");
    expect(weekly).toMatchObject({ period: "weekly", period_start: week.start.getTime(), period_end: week.end.getTime() });

    const deleted = await budgets(jwt, `/${created.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    const gone = await budgets(jwt, `/${created.id}`);
    expect(gone.status).toBe(404);
    expect(await errorCode(gone)).toBe("BGT-404-001");
    expect((await (await budgets(jwt)).json()).items).toEqual([]);
  });

  it("keeps a custom budget's bounds, and drops them when it becomes monthly", async () => {
    const { jwt } = await platform.createUser();
    const start = Date.UTC(2026, 6, 1);
    const end = Date.UTC(2026, 7, 15);
    const created = await create(jwt, { category: "travel", amount: "1200", period: "custom", period_start: start, period_end: end });
    expect(created).toMatchObject({ period: "custom", period_start: start, period_end: end });
    const moved = await (await budgets(jwt, `/${created.id}`, { method: "PATCH", json: { period_end: end + 86_400_000 } })).json();
    expect(moved).toMatchObject({ period_start: start, period_end: end + 86_400_000 });
    const monthly = await (await budgets(jwt, `/${created.id}`, { method: "PATCH", json: { period: "monthly" } })).json();
    expect(monthly.period_start).toBe(calendarPeriod("monthly", new Date(), "UTC").start.getTime());
    const stored = await db.budget.findUniqueOrThrow({ where: { id: created.id } });
    expect([stored.period_start, stored.period_end]).toEqual([null, null]);

    const iso = await (await budgets(jwt, `/${created.id}`, { headers: { "x-timestamp-format": "iso8601" } })).json();
    expect(iso.period_start).toMatch(/^\d{4}-\d\d-01T00:00:00Z$/);
  });

  it("allows one budget per category and period (409 BGT-409-001), also when an update would make a second", async () => {
    const { jwt } = await platform.createUser();
    await create(jwt, { category: "health", amount: "50", period: "weekly" });
    const duplicate = await budgets(jwt, "", { method: "POST", json: { category: "health", amount: "80", period: "weekly", currency: "EUR" } });
    expect(duplicate.status).toBe(409);
    expect(await errorCode(duplicate)).toBe("BGT-409-001");

    const monthly = await create(jwt, { category: "health", amount: "200", period: "monthly" });
    const clash = await budgets(jwt, `/${monthly.id}`, { method: "PATCH", json: { period: "weekly" } });
    expect(clash.status).toBe(409);
    expect(await errorCode(clash)).toBe("BGT-409-001");
    expect((await db.budget.findUniqueOrThrow({ where: { id: monthly.id } })).period).toBe("monthly");

    // another user's budgets do not count
    const other = await platform.createUser();
    await create(other.jwt, { category: "health", amount: "50", period: "weekly" });
  });
});

describe("security", () => {
  it("hides another user's budget (404 BGT-404-001) from read, update and delete", async () => {
    const owner = await platform.createUser();
    const other = await platform.createUser();
    const budget = await create(owner.jwt, { category: "shopping", amount: "75", period: "monthly" });
    for (const init of [{}, { method: "PATCH", json: { amount: "1" } }, { method: "DELETE" }]) {
      const response = await budgets(other.jwt, `/${budget.id}`, init);
      expect(response.status).toBe(404);
      expect(await errorCode(response)).toBe("BGT-404-001");
    }
    expect((await (await budgets(other.jwt)).json()).items).toEqual([]);
    expect((await (await budgets(owner.jwt, `/${budget.id}`)).json()).amount).toBe("75");
  });

  it("needs a credential (401) and the write scope to change anything (403 USR-403-001)", async () => {
    const { jwt } = await platform.createUser();
    const budget = await create(jwt, { category: "other", amount: "5", period: "monthly" });
    const reads: RouteCall[] = [{ path: "/v0/budgets" }, { path: `/v0/budgets/${budget.id}` }, { path: "/v0/budgets/settings" }];
    const writes: RouteCall[] = [
      { method: "POST", path: "/v0/budgets", json: { category: "other", amount: "1", period: "weekly" } },
      { method: "PATCH", path: `/v0/budgets/${budget.id}`, json: { amount: "1" } },
      { method: "DELETE", path: `/v0/budgets/${budget.id}` },
      { method: "PATCH", path: "/v0/budgets/settings", json: { time_zone: "UTC" } },
    ];
    await expectEachProblem(platform, [...reads, ...writes], {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, jwt);
    for (const { path } of reads) expect((await platform.api(path, { pat })).status, path).toBe(200);
    await expectEachProblem(platform, writes, { pat }, { status: 403, code: "USR-403-001" });
  });

  it("lets an agent token holding read:transactions read budgets and settings, not one without it (403 AGT-403-001) nor one restricted to wallets (403 AGT-403-003)", async () => {
    const user = await platform.createUser();
    const budget = await create(user.jwt, { category: "other", amount: "5", period: "monthly" });
    const reads: RouteCall[] = [{ path: "/v0/budgets" }, { path: `/v0/budgets/${budget.id}` }, { path: "/v0/budgets/settings" }];
    const reader = await agentToken(platform, user.jwt, ["read:transactions"]);
    for (const { path } of reads) expect((await platform.api(path, { agent: reader })).status, path).toBe(200);
    await expectEachProblem(platform, reads, { agent: await agentToken(platform, user.jwt, ["read:balances", "write:transfers", "write:strategies"]) }, { status: 403, code: "AGT-403-001" });
    const wallet = (await (await platform.api("/v0/wallets", { jwt: user.jwt })).json()).items[0].id;
    await expectEachProblem(platform, reads, { agent: await agentToken(platform, user.jwt, ["read:transactions"], [wallet]) }, { status: 403, code: "AGT-403-003" });
  });
});

describe("validation", () => {
  it("refuses bad fields with 422 and writes nothing", async () => {
    const { jwt, id } = await platform.createUser();
    const cases: [Record<string, unknown>, string, string[]][] = [
      [{ category: "pets", amount: "1", period: "weekly" }, "GEN-422-001", ["body", "category"]],
      [{ category: "other", amount: "1", period: "daily" }, "GEN-422-001", ["body", "period"]],
      [{ category: "other", amount: "0", period: "weekly" }, "GEN-422-001", ["body", "amount"]],
      [{ category: "other", amount: 5, period: "weekly" }, "GEN-422-001", ["body", "amount"]],
      [{ category: "other", amount: "1.001", period: "weekly" }, "GEN-422-001", ["body", "amount"]],
      [{ category: "other", amount: "1", period: "custom", period_end: Date.UTC(2026, 1, 1) }, "GEN-422-001", ["body", "period_start"]],
      [{ category: "other", amount: "1", period: "custom", period_start: Date.UTC(2026, 1, 1), period_end: Date.UTC(2026, 1, 1) }, "GEN-422-001", ["body", "period_end"]],
      [{ category: "other", amount: "1", period: "weekly", period_start: Date.UTC(2026, 1, 1) }, "GEN-422-001", ["body", "period_start"]],
    ];
    for (const [body, code, loc] of cases) {
      const response = await budgets(jwt, "", { method: "POST", json: body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      const problem = await response.json();
      expect(problem.error_code).toBe(code);
      expect(problem.detail[0].loc).toEqual(loc);
    }
    const currency = await budgets(jwt, "", { method: "POST", json: { category: "other", amount: "1", period: "weekly", currency: "XYZ" } });
    expect(currency.status).toBe(422);
    expect(await errorCode(currency)).toBe("BGT-422-001");
    // a stored amount is checked against the new currency's decimals
    const usdc = await create(jwt, { category: "other", amount: "1.123456", currency: "USDC", period: "weekly" });
    const narrower = await budgets(jwt, `/${usdc.id}`, { method: "PATCH", json: { currency: "USD" } });
    expect(narrower.status).toBe(422);
    expect((await narrower.json()).detail[0].loc).toEqual(["body", "amount"]);
    expect(await db.budget.count({ where: { user_id: id } })).toBe(1);
  });

  it("refuses time zones that are not IANA names", async () => {
    const { jwt } = await platform.createUser();
    for (const time_zone of ["+01:00", "Mars/Olympus", "Europe/Berlin; x"]) {
      const response = await budgets(jwt, "/settings", { method: "PATCH", json: { time_zone } });
      expect(response.status).toBe(422);
      expect((await response.json()).detail[0].loc).toEqual(["body", "time_zone"]);
    }
    expect(await (await budgets(jwt, "/settings")).json()).toMatchObject({ time_zone: "UTC" });
  });
});

describe("spent, remaining and percentage_used", () => {
  it("sum exactly the category's completed, pending and processing out transactions inside [period_start, period_end)", async () => {
    const { jwt, id } = await platform.createUser();
    const start = new Date(Date.UTC(2026, 2, 1));
    const end = new Date(Date.UTC(2026, 3, 1));
    const inside = new Date(Date.UTC(2026, 2, 15, 12));
    await spend(id, "10.10", { at: start });
    await spend(id, "5.05", { at: inside, status: "pending" });
    await spend(id, "2.5", { at: inside, status: "processing" });
    await spend(id, "0.5", { at: inside, unit: { asset_symbol: "ETH", decimals: 18 }, amount_usd: "1.234567891234567891" });
    await spend(id, "10", { at: inside, unit: { currency: "EUR", decimals: 2 }, amount_usd: "10.8" });
    // left out: failed, outside the period, incoming, another category, no USD value, another user
    await spend(id, "100", { at: inside, status: "failed" });
    await spend(id, "7", { at: end });
    await spend(id, "3", { at: new Date(start.getTime() - 1) });
    await spend(id, "50", { at: inside, direction: "in", type: "card_refund" });
    await spend(id, "20", { at: inside, category: "restaurants" });
    await spend(id, "4", { at: inside, category: null });
    await spend(id, "1", { at: inside, unit: { asset_symbol: "USDC", decimals: 6 }, amount_usd: null });
    const other = await platform.createUser();
    await spend(other.id, "999", { at: inside });

    const usd = await create(jwt, { category: "groceries", amount: "40", period: "custom", period_start: start.getTime(), period_end: end.getTime() });
    // 10.10 + 5.05 + 2.5 + 1.234567891234567891 + 10.8
    expect(usd).toMatchObject({ spent: "29.684567891234567891", remaining: "10.315432108765432109", percentage_used: 74.21 });

    await spend(id, "9.99", { at: inside, category: "travel", unit: { currency: "EUR", decimals: 2 }, amount_usd: "10.79" });
    await spend(id, "5", { at: inside, category: "travel" });
    const eur = await create(jwt, { category: "travel", amount: "9", currency: "EUR", period: "custom", period_start: start.getTime(), period_end: end.getTime() });
    // a EUR budget counts EUR transactions by their amount only; overspent shows below zero
    expect(eur).toMatchObject({ spent: "9.99", remaining: "-0.99", percentage_used: 111 });

    const listed = await (await budgets(jwt)).json();
    expect(listed.items.map((b: { spent: string }) => b.spent)).toEqual(["29.684567891234567891", "9.99"]);
  });

  it("use the user's time zone for monthly and weekly periods", async () => {
    const { jwt, id } = await platform.createUser();
    const settings = await budgets(jwt, "/settings", { method: "PATCH", json: { time_zone: "europe/berlin" } });
    expect(settings.status).toBe(200);
    expect(await settings.json()).toMatchObject({ time_zone: "Europe/Berlin" });
    expect(await (await budgets(jwt, "/settings")).json()).toMatchObject({ time_zone: "Europe/Berlin" });

    const now = new Date();
    const month = calendarPeriod("monthly", now, "Europe/Berlin");
    const week = calendarPeriod("weekly", now, "Europe/Berlin");
    await spend(id, "12.34", { at: month.start, category: "shopping" });
    await spend(id, "1", { at: new Date(month.start.getTime() - 1), category: "shopping" });
    await spend(id, "8", { at: week.start, category: "entertainment" });
    await spend(id, "2", { at: new Date(week.start.getTime() - 1), category: "entertainment" });

    const monthly = await create(jwt, { category: "shopping", amount: "100", period: "monthly" });
    expect(monthly).toMatchObject({ time_zone: "Europe/Berlin", period_start: month.start.getTime(), period_end: month.end.getTime(), spent: "12.34", remaining: "87.66", percentage_used: 12.34 });
    const weekly = await create(jwt, { category: "entertainment", amount: "30", period: "weekly" });
    expect(weekly).toMatchObject({ period_start: week.start.getTime(), period_end: week.end.getTime(), spent: "8", remaining: "22", percentage_used: 26.67 });
  });
});

describe("GraphQL", () => {
  it("answers User.budgets beside the user's other fields, and marks budget fields for agents", async () => {
    const { jwt } = await platform.createUser();
    const budget = await create(jwt, { category: "utilities", amount: "60", period: "monthly" });
    const response = await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": jwt },
      body: JSON.stringify({ query: "{ me { id budgets { id category spent remaining percentage_used } } budget(id: \"" + budget.id + "\") { amount } }" }),
    });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    expect(body.data.me.budgets).toEqual([{ id: budget.id, category: "utilities", spent: "0", remaining: "60", percentage_used: 0 }]);
    expect(body.data.budget).toEqual({ amount: "60" });

    const supergraph = readFileSync(new URL("../../../gateway/supergraph.graphql", import.meta.url), "utf8");
    for (const field of ["budgets: [Budget!]!", "budget(id: ID!): Budget!"])
      expect(supergraph).toContain(`${field} @join__field(graph: FINANCE) @tag(name: "agent_scope:read:transactions") @tag(name: "agent")`);
  });
});
