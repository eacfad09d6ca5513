import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids.ts";
import type { FinanceDb } from "../../subgraphs/finance/db.ts";
import { createBudget } from "../../subgraphs/finance/budgets/create-budget.ts";
import { CHANGE_EVENTS_JOB } from "../../subgraphs/finance/changes/change-events.ts";
import { computeInsights } from "../../subgraphs/finance/insights/compute-insights.ts";
import { NO_GOALS, type GoalSource, type SavingsGoal } from "../../subgraphs/finance/insights/goal-progress.ts";
import { dismissInsight } from "../../subgraphs/finance/insights/dismiss-insight.ts";
import { getInsight, listInsights } from "../../subgraphs/finance/insights/insight-queries.ts";
import { recordMovement, type MovementInput } from "../../subgraphs/finance/transactions/record-movement.ts";
import { moveTransactionStatus } from "../../subgraphs/finance/transactions/move-transaction-status.ts";
import { cardPurchase, changeEventsWorker, DAY, openFinanceDb } from "../support/finance-db.ts";

// Issue 9, insights: computed from the ledger after each change event (a durable job) and on
// demand; each finding once while it stands; dismissed stays dismissed; resolved when it stops.

let db: FinanceDb;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openFinanceDb());
});
afterAll(() => close());

const user = () => newId("usr");
const daysAgo = (days: number, now = Date.now()) => new Date(now - days * DAY);

/** An outgoing card payment in USD, booked straight into the ledger (cards may go below zero). */
function pay(user_id: string, amount: string, at: Date, extra: Partial<MovementInput> = {}) {
  return db.$transaction((tx) => recordMovement(tx, cardPurchase(user_id, amount, at, extra)));
}

/** `times` charges 30 days apart, the latest `latestDaysAgo` days ago. */
const monthly = (user_id: string, name: string, amount: string, times: number, extra: Partial<MovementInput> = {}, latestDaysAgo = 3) =>
  Promise.all(Array.from({ length: times }, (_, i) => pay(user_id, amount, daysAgo(latestDaysAgo + 30 * i), { merchant: { name, mcc: "4899" }, ...extra })));

const compute = (user_id: string, goals: GoalSource = NO_GOALS, now?: Date) => computeInsights({ db, goals }, user_id, now);
const active = async (user_id: string) => (await listInsights(db, { user_id, page: { limit: 200 } })).items;

describe("computing insights from the ledger", () => {
  it("finds a recurring charge once, however often it computes, and refreshes it in place", async () => {
    const id = user();
    await monthly(id, "Netflix", "15.99", 4, {}, 33);
    expect(await compute(id)).toMatchObject({ found: 1, resolved: 0 });
    const [first, ...rest] = await active(id);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ type: "recurring_charge", severity: "info", status: "active", title: "Netflix charges you monthly" });
    expect(first!.description).toContain("15.99 USD monthly, 4 times");
    expect(first!.data).toMatchObject({ merchant: "Netflix", cadence: "monthly", currency: "USD", typical_amount: "15.99", occurrences: 4, yearly_cost: "191.88", category: "entertainment" });
    expect((first!.data.transaction_ids as string[]).length).toBe(4);

    await compute(id);
    await compute(id);
    const again = await active(id);
    expect(again.map((insight) => insight.id)).toEqual([first!.id]);
    expect(again[0]!.updated_at).toEqual(first!.updated_at);

    // a fifth charge changes the figures: the same insight, updated
    await pay(id, "15.99", daysAgo(3), { merchant: { name: "netflix ", mcc: "4899" } });
    await compute(id);
    const updated = await active(id);
    expect(updated.map((insight) => insight.id)).toEqual([first!.id]);
    expect(updated[0]!.data.occurrences).toBe(5);
  });

  it("keeps a dismissed insight dismissed, and resolves one that no longer stands", async () => {
    const id = user();
    await monthly(id, "Gym Co", "40", 3, { merchant: { name: "Gym Co", mcc: "7997" } });
    await compute(id);
    const [insight] = await active(id);
    const dismissed = await dismissInsight(db, { user_id: id, insight_id: insight!.id });
    expect(dismissed).toMatchObject({ status: "dismissed" });
    expect(dismissed.dismissed_at).toBeInstanceOf(Date);
    expect(await dismissInsight(db, { user_id: id, insight_id: insight!.id })).toEqual(dismissed);
    await compute(id);
    expect(await active(id)).toEqual([]);
    expect((await listInsights(db, { user_id: id, filter: { status: "all" } })).items).toHaveLength(1);

    // a subscription stopped: computed 100 days later, its finding no longer stands
    const other = user();
    await monthly(other, "Music+", "9.99", 3);
    await compute(other);
    const [standing] = await active(other);
    await compute(other, NO_GOALS, new Date(Date.now() + 100 * DAY));
    expect(await getInsight(db, { user_id: other, insight_id: standing!.id })).toMatchObject({ status: "resolved" });
    // found again (computed now): active again, the same insight
    await compute(other);
    expect((await active(other)).map((one) => [one.id, one.status, one.resolved_at])).toEqual([[standing!.id, "active", null]]);
  });

  it("finds a spending spike against the trailing three months, in the user's month", async () => {
    const id = user();
    const now = new Date(Date.UTC(2026, 10, 20, 12));
    const inMonth = (month: number, day: number) => new Date(Date.UTC(2026, month, day, 12));
    // groceries: 300 in each of Aug, Sep, Oct; 560 so far in Nov
    for (const month of [7, 8, 9]) await pay(id, "300", inMonth(month, 10), { category: "groceries" });
    await pay(id, "560", inMonth(10, 5), { category: "groceries" });
    // restaurants: a small rise, not a spike
    for (const month of [7, 8, 9]) await pay(id, "40", inMonth(month, 10), { category: "restaurants" });
    await pay(id, "70", inMonth(10, 5), { category: "restaurants" });
    await compute(id, NO_GOALS, now);
    const spikes = (await active(id)).filter((insight) => insight.type === "spending_spike");
    expect(spikes).toHaveLength(1);
    expect(spikes[0]).toMatchObject({ severity: "warning", title: "Groceries spending is up 87% this month" });
    expect(spikes[0]!.data).toMatchObject({ category: "groceries", spent: "560", trailing_average: "300", trailing_months: ["300", "300", "300"], increase_percent: 87 });
    expect(spikes[0]!.data.period_start).toBe(Date.UTC(2026, 10, 1));
  });

  it("warns at 80% and 100% of a budget, the 100% finding superseding the 80% one", async () => {
    const id = user();
    await createBudget(db, { user_id: id, category: "restaurants", amount: "100", period: "monthly" });
    await pay(id, "85", new Date(), { category: "restaurants" });
    await compute(id);
    const [warning] = (await active(id)).filter((insight) => insight.type === "budget_warning");
    expect(warning).toMatchObject({ severity: "warning", title: "Restaurants budget 80% used" });
    expect(warning!.data).toMatchObject({ threshold: 80, spent: "85", amount: "100", percentage_used: 85 });
    await pay(id, "20", new Date(), { category: "restaurants" });
    await compute(id);
    const warnings = await listInsights(db, { user_id: id, filter: { type: "budget_warning", status: "all" } });
    expect(warnings.items.map((insight) => [insight.status, insight.data.threshold])).toEqual([
      ["active", 100],
      ["resolved", 80],
    ]);
    expect(warnings.items[0]).toMatchObject({ severity: "critical", title: "Restaurants budget exceeded" });
    expect(warnings.items[0]!.description).toContain("5.00 USD over it");
  });

  it("tells fees and overlapping subscriptions as saving opportunities", async () => {
    const id = user();
    await monthly(id, "StreamA", "12", 3, { category: "entertainment" });
    await monthly(id, "StreamB", "8", 3, { category: "entertainment" });
    await pay(id, "4", daysAgo(10), { type: "fee", description: "ATM fee" });
    await pay(id, "3.5", daysAgo(40), { type: "fee" });
    await pay(id, "50", daysAgo(120), { type: "fee" });
    await compute(id);
    const savings = (await active(id)).filter((insight) => insight.type === "saving_opportunity");
    const byReason = Object.fromEntries(savings.map((insight) => [insight.data.reason, insight]));
    expect(byReason.fees!.data).toMatchObject({ total: "7.5", count: 2 });
    expect(byReason.overlapping_subscriptions!.data).toMatchObject({ category: "entertainment", monthly_cost: "20" });
    expect(byReason.overlapping_subscriptions!.title).toBe("2 recurring entertainment charges");
  });

  it("tells the progress of savings goals through the GoalSource hook", async () => {
    const id = user();
    const goals: SavingsGoal[] = [{ id: "goal_1", name: "Holiday", currency: "USD", target_amount: "1000", saved_amount: "520" }];
    await compute(id, { goals: async () => goals });
    expect(await active(id)).toMatchObject([{ type: "goal_progress", title: "Holiday: 50% saved", data: { milestone: 50 } }]);
  });

  it("keeps one user's insights from another", async () => {
    const [a, b] = [user(), user()];
    await monthly(a, "Netflix", "15.99", 3);
    await compute(a);
    const [insight] = await active(a);
    await expect(getInsight(db, { user_id: b, insight_id: insight!.id })).rejects.toMatchObject({ code: "INS-404-001" });
    await expect(dismissInsight(db, { user_id: b, insight_id: insight!.id })).rejects.toMatchObject({ code: "INS-404-001" });
    expect(await active(b)).toEqual([]);
  });
});

describe("insights after change events", () => {
  it("follow every ledger change, told once per user however many, computed when the event is told", async () => {
    const id = user();
    await monthly(id, "Netflix", "15.99", 3);
    const jobs = await db.job.findMany({ where: { key: `finance_changed:${id}` } });
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ kind: CHANGE_EVENTS_JOB, status: "queued", payload: { user_id: id } });
    expect(jobs[0]!.run_at.getTime()).toBeGreaterThan(Date.now());
    expect(await active(id)).toEqual([]);

    await db.job.updateMany({ where: { key: `finance_changed:${id}` }, data: { run_at: new Date(Date.now() - 1) } });
    const queue = changeEventsWorker(db);
    await queue.drain();
    expect(await active(id)).toMatchObject([{ type: "recurring_charge" }]);
    expect(await db.job.findFirst({ where: { key: `finance_changed:${id}` } })).toMatchObject({ status: "succeeded" });

    // a status move publishes again
    const pending = await pay(id, "5", new Date(), { status: "pending" });
    expect(await db.job.findFirst({ where: { key: `finance_changed:${id}` } })).toMatchObject({ status: "queued" });
    await moveTransactionStatus(db as never, { user_id: id, transaction_id: pending.id, to: "processing" });
    expect(await db.job.count({ where: { key: `finance_changed:${id}` } })).toBe(1);
  });
});
