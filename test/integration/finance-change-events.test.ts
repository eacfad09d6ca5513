import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../lib/ids.ts";
import { createBudget } from "../../subgraphs/finance/budgets/create-budget.ts";
import { deleteBudget } from "../../subgraphs/finance/budgets/delete-budget.ts";
import { updateBudget } from "../../subgraphs/finance/budgets/update-budget.ts";
import { CHANGE_EVENTS_JOB } from "../../subgraphs/finance/changes/change-events.ts";
import type { FinanceDb, FinanceTx } from "../../subgraphs/finance/db.ts";
import { listInsights } from "../../subgraphs/finance/insights/insight-queries.ts";
import { recordMovement } from "../../subgraphs/finance/transactions/record-movement.ts";
import { cardPurchase, changeEventsWorker, DAY, openFinanceDb } from "../support/finance-db.ts";

// Issue 28, part 5: finance's writers publish a change event in their own database transaction
// (subgraphs/finance/changes/change-events.ts) and insights subscribe to it. An event committed
// with its change is told even after the process that committed it is gone; a change rolled back
// publishes none; a budget and its event are written together or not at all.

let db: FinanceDb;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openFinanceDb());
});
afterAll(() => close());

/** A process starting afresh, wired as the finance subgraph wires its queue. */
const freshWorker = () => changeEventsWorker(db);
const eventOf = (user_id: string) => db.job.findUnique({ where: { key: `finance_changed:${user_id}` } });
const insightsOf = async (user_id: string) => (await listInsights(db, { user_id, filter: { status: "all" } })).items;

/** Three monthly Netflix charges booked in `tx`: a recurring_charge once insights are computed. */
async function netflixCharges(tx: FinanceTx, user_id: string): Promise<void> {
  for (const days of [62, 32, 2]) await recordMovement(tx, cardPurchase(user_id, "15.99", new Date(Date.now() - days * DAY), { merchant: { name: "Netflix", mcc: "4899" } }));
}

describe("insights follow finance's change events", () => {
  it("an event committed with its change is told, even when the worker that took it died", async () => {
    const user_id = newId("usr");
    await db.$transaction((tx) => netflixCharges(tx, user_id));
    expect(await eventOf(user_id)).toMatchObject({ kind: CHANGE_EVENTS_JOB, status: "queued", payload: { user_id } });
    expect(await insightsOf(user_id)).toEqual([]);

    // a worker claimed it, then its process died: once the lease is over, a new process tells it
    await db.job.update({ where: { key: `finance_changed:${user_id}` }, data: { status: "running", attempts: 1, locked_until: new Date(Date.now() - 1) } });
    expect(await freshWorker().drain()).toBe(1);
    expect(await insightsOf(user_id)).toMatchObject([{ type: "recurring_charge", status: "active" }]);
    expect(await eventOf(user_id)).toMatchObject({ status: "succeeded" });
  });

  it("a change rolled back publishes no event, and no insight follows", async () => {
    const user_id = newId("usr");
    await expect(
      db.$transaction(async (tx) => {
        await netflixCharges(tx, user_id);
        throw new Error("the writer fails after its movements");
      }),
    ).rejects.toThrow("the writer fails after its movements");
    expect(await eventOf(user_id)).toBeNull();
    expect(await db.transaction.count({ where: { user_id } })).toBe(0);
    await freshWorker().drain();
    expect(await insightsOf(user_id)).toEqual([]);
  });
});

describe("a budget and its change event are one transaction", () => {
  /** Makes the database refuse `user_id`'s change event: the second write of each budget writer. */
  async function refuseEventsOf(user_id: string): Promise<() => Promise<void>> {
    const name = `refuse_${user_id}`;
    await db.$executeRawUnsafe(
      `CREATE FUNCTION "finance"."${name}"() RETURNS TRIGGER LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'change event refused'; END $$`,
    );
    await db.$executeRawUnsafe(
      `CREATE TRIGGER "${name}" BEFORE INSERT ON "finance"."jobs" FOR EACH ROW WHEN (NEW."key" = 'finance_changed:${user_id}') EXECUTE FUNCTION "finance"."${name}"()`,
    );
    return async () => {
      await db.$executeRawUnsafe(`DROP TRIGGER "${name}" ON "finance"."jobs"`);
      await db.$executeRawUnsafe(`DROP FUNCTION "finance"."${name}"()`);
    };
  }

  it("update, create and delete leave the budget as it was when the event cannot be written", async () => {
    const user_id = newId("usr");
    const budget = await createBudget(db, { user_id, category: "restaurants", amount: "100", period: "monthly" });
    await db.job.delete({ where: { key: `finance_changed:${user_id}` } });
    const stored = () => db.budget.findMany({ where: { user_id }, orderBy: { id: "asc" } });
    const before = await stored();

    const allow = await refuseEventsOf(user_id);
    try {
      await expect(updateBudget(db, { user_id, budget_id: budget.id, amount: "250", period: "weekly" })).rejects.toThrow("change event refused");
      await expect(createBudget(db, { user_id, category: "travel", amount: "500", period: "monthly" })).rejects.toThrow("change event refused");
      await expect(deleteBudget(db, { user_id, budget_id: budget.id })).rejects.toThrow("change event refused");
    } finally {
      await allow();
    }
    expect(await stored()).toEqual(before);
    expect(await eventOf(user_id)).toBeNull();

    // with the event allowed, the same update lands with its event
    expect(await updateBudget(db, { user_id, budget_id: budget.id, amount: "250", period: "weekly" })).toMatchObject({ amount: "250", period: "weekly" });
    expect(await eventOf(user_id)).toMatchObject({ kind: CHANGE_EVENTS_JOB, status: "queued" });
  });
});
