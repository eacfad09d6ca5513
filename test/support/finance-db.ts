import { openDatabase } from "../../lib/db/database.ts";
import { applyMigrations } from "../../lib/db/migrations.ts";
import { JobQueue } from "../../lib/jobs/job-queue.ts";
import { createLogger } from "../../lib/logger.ts";
import { changeEventsHandler, CHANGE_EVENTS_JOB } from "../../subgraphs/finance/changes/change-events.ts";
import { createFinanceDb, type FinanceDb } from "../../subgraphs/finance/db.ts";
import { insightsSubscriber } from "../../subgraphs/finance/insights/compute-insights.ts";
import { NO_GOALS } from "../../subgraphs/finance/insights/goal-progress.ts";
import { recordMovement, type MovementInput } from "../../subgraphs/finance/transactions/record-movement.ts";

// What the finance subgraph's integration tests share: a migrated database of their own, the
// change-events worker as the subgraph wires it, and the card purchase their insights come from.

export const DAY = 86_400_000;

/** A finance database in memory, migrated; `close` when the suite is done. */
export async function openFinanceDb(): Promise<{ db: FinanceDb; close: () => Promise<void> }> {
  const database = await openDatabase({ dataDir: "memory://" });
  await applyMigrations(database, ["finance"]);
  const db = createFinanceDb(database);
  return {
    db,
    async close() {
      await db.$disconnect();
      await database.close();
    },
  };
}

/** A queue working finance's change events into insights, as the finance subgraph wires it. */
export function changeEventsWorker(db: FinanceDb): JobQueue {
  return new JobQueue({ db, schema: "finance", logger: createLogger("silent"), handlers: { [CHANGE_EVENTS_JOB]: changeEventsHandler([insightsSubscriber({ db, goals: NO_GOALS })]) } });
}

/** A completed outgoing card payment in USD (cards may go below zero). */
export function cardPurchase(user_id: string, amount: string, timestamp: Date, extra: Partial<MovementInput> = {}): MovementInput {
  return {
    user_id,
    type: "card_purchase",
    direction: "out",
    amount,
    unit: { currency: "USD", decimals: 2 },
    source: { kind: "card", id: `card_${user_id}` },
    overdraft: "allow",
    status: "completed",
    timestamp,
    ...extra,
  };
}

/** A movement booked directly in the ledger (any type, source, status, time), overdrafts allowed: a completed ETH deposit unless `input` says otherwise. */
export function bookMovement(db: FinanceDb, user_id: string, wallet_id: number, { at, ...input }: Partial<MovementInput> & { at: number }) {
  return db.$transaction((tx) =>
    recordMovement(tx, {
      user_id,
      type: "deposit",
      direction: "in",
      status: "completed",
      amount: "1",
      unit: { asset_symbol: "ETH", decimals: 18 },
      source: { kind: "wallet", id: wallet_id },
      overdraft: "allow",
      timestamp: new Date(at),
      ...input,
    }),
  );
}
