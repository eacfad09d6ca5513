import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { applyMigrations } from "../../lib/db/migrations.ts";
import { newId } from "../../lib/ids.ts";
import { JobQueue } from "../../lib/jobs/job-queue.ts";
import { createLogger } from "../../lib/logger.ts";
import { changeEventsHandler, CHANGE_EVENTS_JOB } from "../../subgraphs/finance/changes/change-events.ts";
import { createFinanceDb, type FinanceDb, type FinanceTx } from "../../subgraphs/finance/db.ts";
import { insightsSubscriber } from "../../subgraphs/finance/insights/compute-insights.ts";
import { NO_GOALS } from "../../subgraphs/finance/insights/goal-progress.ts";
import { listInsights } from "../../subgraphs/finance/insights/insight-record.ts";
import { recordMovement } from "../../subgraphs/finance/transactions/record-movement.ts";

// Issue 28, part 5: finance's writers publish a change event in their own database transaction
// (subgraphs/finance/changes/change-events.ts) and insights subscribe to it. An event committed
// with its change is told even after the process that committed it is gone; a change rolled back
// publishes none.

let database: Database;
let db: FinanceDb;
const DAY = 86_400_000;

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await applyMigrations(database, ["finance"]);
  db = createFinanceDb(database);
});
afterAll(async () => {
  await db.$disconnect();
  await database.close();
});

/** A process starting afresh, wired as the finance subgraph wires its queue. */
const freshWorker = () => new JobQueue({ db, schema: "finance", logger: createLogger("silent"), handlers: { [CHANGE_EVENTS_JOB]: changeEventsHandler([insightsSubscriber({ db, goals: NO_GOALS })]) } });
const eventOf = (user_id: string) => db.job.findUnique({ where: { key: `finance_changed:${user_id}` } });
const insightsOf = async (user_id: string) => (await listInsights(db, { user_id, filter: { status: "all" } })).items;

/** Three monthly Netflix charges booked in `tx`: a recurring_charge once insights are computed. */
async function netflixCharges(tx: FinanceTx, user_id: string): Promise<void> {
  for (const days of [62, 32, 2])
    await recordMovement(tx, {
      user_id,
      type: "card_purchase",
      direction: "out",
      amount: "15.99",
      unit: { currency: "USD", decimals: 2 },
      source: { kind: "card", id: `card_${user_id}` },
      overdraft: "allow",
      status: "completed",
      merchant: { name: "Netflix", mcc: "4899" },
      timestamp: new Date(Date.now() - days * DAY),
    });
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
