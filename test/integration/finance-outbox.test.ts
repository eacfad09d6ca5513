import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unrelayedOutgoingEvents } from "../../lib/outgoing-events-outbox.ts";
import type { FinanceDb } from "../../subgraphs/finance/db.ts";
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
});
