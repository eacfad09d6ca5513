import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unrelayedOutgoingEvents } from "../../lib/outgoing-events-outbox.ts";
import type { FinanceDb } from "../../subgraphs/finance/db.ts";
import { createBudget } from "../../subgraphs/finance/budgets/create-budget.ts";
import { computeInsights } from "../../subgraphs/finance/insights/compute-insights.ts";
import { NO_GOALS } from "../../subgraphs/finance/insights/goal-progress.ts";
import { moveTransactionStatus, walkTransactionStatus } from "../../subgraphs/finance/transactions/move-transaction-status.ts";
import { recordMovement } from "../../subgraphs/finance/transactions/record-movement.ts";
import { cardPurchase, openFinanceDb } from "../support/finance-db.ts";

// Issue 29: the finance subgraph's outgoing events are an outbox, written with the change they report.
let db: FinanceDb;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ db, close } = await openFinanceDb());
});
afterAll(() => close());

const eventsOf = (userId: string) => db.outgoingEvent.findMany({ where: { user_id: userId }, orderBy: { id: "asc" } });

describe("finance outgoing events outbox", () => {
  it("writes no transaction.created when the movement's transaction fails after it, and exactly one when it commits", async () => {
    const user_id = "usr_outbox_txn";
    const at = new Date(Date.UTC(2026, 10, 1, 12));
    const purchase = cardPurchase(user_id, "15.99", at, { merchant: { name: "Netflix", mcc: "4899" } });
    await expect(
      db.$transaction(async (tx) => {
        await recordMovement(tx, purchase);
        throw new Error("the change fails after its event was written");
      }),
    ).rejects.toThrow("fails after");
    expect(await eventsOf(user_id)).toEqual([]);

    const view = await db.$transaction((tx) => recordMovement(tx, purchase));
    const rows = await eventsOf(user_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: "transaction.created", event_id: expect.stringMatching(/^evt_[0-9a-z]{26}$/), resource_type: "transaction", resource_id: view.id, relayed_at: null });
    expect(rows[0]!.data).toEqual({
      id: view.id,
      user_id,
      type: "card_purchase",
      status: "completed",
      direction: "out",
      amount: "15.99",
      asset: null,
      currency: "USD",
      amount_usd: null,
      category: "entertainment",
      merchant: { name: "Netflix", mcc: "4899" },
      wallet_id: null,
      card_id: `card_${user_id}`,
      bank_account_id: null,
      counterparty: null,
      chain_id: null,
      tx_hash: null,
      timestamp: at.getTime(),
      created_at: view.created_at.getTime(),
    });
    // finance does not know the user's environment: the relay asks the users subgraph
    const pending = (await unrelayedOutgoingEvents(db.outgoingEvent, 500)).filter((event) => event.user_id === user_id);
    expect(pending).toEqual([expect.objectContaining({ event_id: rows[0]!.event_id, environment_id: null, type: "transaction.created" })]);
  });

  it("writes transaction.status_changed once per move, with the status it left, and nothing for a refused move", async () => {
    const user_id = "usr_outbox_status";
    const pending = await db.$transaction((tx) => recordMovement(tx, cardPurchase(user_id, "5", new Date(), { status: "pending" })));
    await db.$transaction((tx) => moveTransactionStatus(tx, { user_id, transaction_id: pending.id, to: "processing" }));
    await expect(db.$transaction((tx) => moveTransactionStatus(tx, { user_id, transaction_id: pending.id, to: "pending" }))).rejects.toMatchObject({ code: "TXN-409-001" });
    // a provider's report walks several steps at once: one event, from where it stood
    expect(await db.$transaction((tx) => walkTransactionStatus(tx, { id: pending.id, user_id, status: "processing" }, "completed"))).toBe(true);
    // a replayed report finds the status moved on and writes nothing
    expect(await db.$transaction((tx) => walkTransactionStatus(tx, { id: pending.id, user_id, status: "processing" }, "completed"))).toBe(false);
    const changes = (await eventsOf(user_id)).filter((row) => row.type === "transaction.status_changed");
    expect(changes.map((row) => row.data)).toEqual([
      expect.objectContaining({ id: pending.id, user_id, previous_status: "pending", status: "processing" }),
      expect.objectContaining({ id: pending.id, user_id, previous_status: "processing", status: "completed" }),
    ]);
    expect(changes.every((row) => row.resource_type === "transaction" && row.resource_id === pending.id)).toBe(true);
  });

  it("writes insight.created for each new insight and budget.threshold_crossed once per budget, period and threshold", async () => {
    const user_id = "usr_outbox_budget";
    const budget = await createBudget(db, { user_id, category: "restaurants", amount: "100", period: "monthly" });
    const pay = (amount: string) => db.$transaction((tx) => recordMovement(tx, cardPurchase(user_id, amount, new Date(), { category: "restaurants" })));
    const compute = () => computeInsights({ db, goals: NO_GOALS }, user_id);
    await pay("85");
    await compute();
    // computed again, the finding stands: refreshed, nothing new
    await pay("1");
    await compute();
    await pay("20");
    await compute();
    const rows = await eventsOf(user_id);
    const crossed = rows.filter((row) => row.type === "budget.threshold_crossed");
    expect(crossed.map((row) => [row.resource_type, row.resource_id, (row.data as { threshold: number }).threshold])).toEqual([
      ["budget", budget.id, 80],
      ["budget", budget.id, 100],
    ]);
    expect(crossed[0]!.data).toMatchObject({ budget_id: budget.id, user_id, category: "restaurants", amount: "100", spent: "85", percentage_used: 85, period_start: expect.any(Number) });
    const insights = await db.insight.findMany({ where: { user_id }, orderBy: { created_at: "asc" } });
    const created = rows.filter((row) => row.type === "insight.created");
    expect(created.map((row) => row.resource_id).sort()).toEqual(insights.map((insight) => insight.id).sort());
    expect(created[0]!.data).toMatchObject({ id: insights[0]!.id, user_id, type: "budget_warning", severity: "warning", status: "active", title: "Restaurants budget 80% used", data: { threshold: 80 } });
  });
});
