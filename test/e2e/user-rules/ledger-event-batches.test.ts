import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LedgerEvent } from "../../../lib/automation-finance.ts";
import { openDatabase, type Database } from "../../../lib/db/database.ts";
import { applyMigrations } from "../../../lib/db/migrations.ts";
import type { JobRow } from "../../../lib/jobs/job-queue.ts";
import { createLogger } from "../../../lib/logger.ts";
import { ledgerEventConsumer } from "../../../subgraphs/agents/automation/ledger-event-consumer.ts";
import { createAgentsDb, type AgentsDb } from "../../../subgraphs/agents/db.ts";
import { freshDatabaseUrl } from "../../support/test-database.ts";

// Issue 30: the ledger-event consumer records a batch's events that nothing of their user's
// concerns in one statement and applies the others one transaction each. Every event exactly
// once, the rules' effects as before, a failure mid-batch leaving nothing half-applied; on PGlite
// and on PostgreSQL.

let database: Database;
let db: AgentsDb;

beforeAll(async () => {
  database = await openDatabase({ databaseUrl: await freshDatabaseUrl(), dataDir: "memory://" });
  await applyMigrations(database, ["agents"]);
  db = createAgentsDb(database);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.close();
});

const job: JobRow = { id: "job_standing_ledger_events", kind: "ledger_events", key: "ledger_events", payload: {}, attempts: 1, max_attempts: 8 };
const logger = createLogger("silent");

function ledgerEvent(id: number, user_id: string, payload: Partial<LedgerEvent["payload"]> = {}): LedgerEvent {
  return {
    id: String(id),
    user_id,
    kind: "recorded",
    payload: {
      transaction_id: `txn_${id}`,
      type: "deposit",
      status: "completed",
      previous_status: null,
      direction: "in",
      amount: "10",
      asset_symbol: "USDC",
      currency: null,
      amount_usd: "10",
      category: "other",
      wallet_id: 1,
      card_id: null,
      bank_account_id: null,
      merchant_name: null,
      timestamp: "2026-11-27T12:00:00.000Z",
      ...payload,
    },
  };
}

/** Finance's outbox in memory: the oldest undelivered events, delivered until acknowledged; `failAck` loses acknowledgements. */
function outbox(events: LedgerEvent[], balance: (eventId: string) => string = () => "100") {
  const undelivered = new Map(events.map((event) => [event.id, event]));
  const state = { failAck: 0, acknowledged: [] as string[][], balanceReads: 0, failBalanceOf: null as string | null };
  const finance = {
    ledgerEvents: async (limit: number) => [...undelivered.values()].slice(0, limit),
    acknowledge: async (ids: string[]) => {
      if (state.failAck > 0) {
        state.failAck--;
        throw new Error("finance away");
      }
      state.acknowledged.push(ids);
      for (const id of ids) undelivered.delete(id);
    },
    walletAvailable: async (_userId: string, _walletId: number, _asset: string, traceId: string) => {
      const eventId = traceId.replace("ledger-event-", "");
      if (eventId === state.failBalanceOf) throw new Error("finance away");
      state.balanceReads++;
      return balance(eventId);
    },
  };
  return { finance, state, left: () => undelivered.size };
}

const executionsOf = async (rule_id: string) =>
  (await db.userRuleExecution.findMany({ where: { rule_id }, select: { event_key: true, outcome: true } })).sort((a, b) => a.event_key.localeCompare(b.event_key));
const processedIds = async (from: number, to: number) =>
  (await db.processedLedgerEvent.findMany({ where: { event_id: { gte: BigInt(from), lte: BigInt(to) } }, orderBy: { event_id: "asc" } })).map((row) => Number(row.event_id));
const keysOf = (ids: number[]) => ids.map((id) => `ledger:${id}`).sort((a, b) => a.localeCompare(b));
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("the ledger-event consumer's batches (subgraphs/agents/automation/ledger-event-consumer.ts)", () => {
  it("applies a batch of many events for users with and without rules exactly once, each rule doing what it did", async () => {
    await db.userRule.createMany({
      data: [
        { id: "rul_b_groceries", user_id: "usr_b_tx", name: "Groceries", trigger_type: "transaction_received", trigger: { category: "groceries" }, action_type: "notification", action: {} },
        { id: "rul_b_low", user_id: "usr_b_bal", name: "Low", trigger_type: "balance_threshold", trigger: { wallet_id: 7, asset: "usdc", threshold: "50", crossing: "below" }, action_type: "notification", action: {} },
        { id: "rul_b_other_wallet", user_id: "usr_b_bal", name: "Other wallet", trigger_type: "balance_threshold", trigger: { wallet_id: 8, asset: "USDC", threshold: "50", crossing: "below" }, action_type: "notification", action: {} },
        { id: "rul_b_off", user_id: "usr_b_off", name: "Off", enabled: false, trigger_type: "transaction_received", trigger: {}, action_type: "notification", action: {} },
        { id: "rul_b_big", user_id: "usr_b_off", name: "Big", trigger_type: "transaction_received", trigger: { amount_min: "1000" }, action_type: "notification", action: {} },
      ],
    });
    await db.userStrategy.createMany({
      data: [
        { id: "ust_b_alert", user_id: "usr_b_stg", strategy_id: "stg_low_balance_alert", parameters: { wallet_id: 9, asset: "USDC", threshold: "5" }, status: "enabled" },
        { id: "ust_b_paused", user_id: "usr_b_stg", strategy_id: "stg_round_up", parameters: {}, status: "paused" },
      ],
    });
    const users = ["usr_b_none0", "usr_b_tx", "usr_b_none1", "usr_b_bal", "usr_b_none2", "usr_b_off", "usr_b_none3", "usr_b_stg"];
    const events = range(1, 250).map((id) => {
      const user = users[id % users.length]!;
      if (user === "usr_b_tx") return ledgerEvent(id, user, { category: id % 3 === 0 ? "groceries" : "other" });
      if (user === "usr_b_bal") return ledgerEvent(id, user, { wallet_id: 7 });
      if (user === "usr_b_stg") return ledgerEvent(id, user, { wallet_id: id % 3 === 0 ? 9 : 1, type: "card_purchase" });
      return ledgerEvent(id, user);
    });
    const balEvents = events.filter((event) => event.user_id === "usr_b_bal").map((event) => Number(event.id));
    // wallet 7 goes below 50 and back above on alternate events: each dip is a crossing below
    const below = new Set(balEvents.filter((_, i) => i % 2 === 0).map(String));
    const { finance, state, left } = outbox(events, (eventId) => (below.has(eventId) ? "10" : "100"));
    const consumer = ledgerEventConsumer({ db, finance, logger });

    // the first batch's acknowledgement is lost: it is delivered again and causes nothing more
    state.failAck = 1;
    expect(await consumer.run(job)).toEqual({ outcome: "later", afterMs: 5000 });
    expect(await processedIds(1, 250)).toEqual(range(1, 100));
    for (let pass = 0; pass < 10 && left() > 0; pass++) await consumer.run(job);
    expect(left()).toBe(0);
    expect(state.acknowledged.map((ids) => ids.length)).toEqual([100, 100, 50]);

    expect(await processedIds(1, 250)).toEqual(range(1, 250));
    const groceries = events.filter((event) => event.user_id === "usr_b_tx" && event.payload.category === "groceries").map((event) => Number(event.id));
    expect(groceries.length).toBeGreaterThan(5);
    expect(await executionsOf("rul_b_groceries")).toEqual(keysOf(groceries).map((event_key) => ({ event_key, outcome: "fired" })));
    expect(await executionsOf("rul_b_low")).toEqual(keysOf([...below].map(Number)).map((event_key) => ({ event_key, outcome: "fired" })));
    // the last event of wallet 7 left it on its side; the rule on another wallet never saw a balance
    expect((await db.userRule.findUniqueOrThrow({ where: { id: "rul_b_low" } })).state).toEqual({ side: below.has(String(balEvents.at(-1))) ? "below" : "above" });
    expect((await db.userRule.findUniqueOrThrow({ where: { id: "rul_b_other_wallet" } })).state).toBeNull();
    // one balance read per wallet-7 event, each once: none for the redelivered batch
    expect(state.balanceReads).toBe(balEvents.length);
    expect(await executionsOf("rul_b_off")).toEqual([]);
    expect(await executionsOf("rul_b_big")).toEqual([]);
    expect(await db.notification.count({ where: { user_id: "usr_b_tx" } })).toBe(groceries.length);
    expect(await db.notification.count({ where: { user_id: "usr_b_bal" } })).toBe(below.size);
    expect(await db.notification.count({ where: { user_id: { in: ["usr_b_none0", "usr_b_none1", "usr_b_none2", "usr_b_none3", "usr_b_off"] } } })).toBe(0);
    // the low-balance alert runs once for each movement of its wallet; the paused round-up never
    const wallet9 = events.filter((event) => event.user_id === "usr_b_stg" && event.payload.wallet_id === 9).map((event) => Number(event.id));
    expect(wallet9.length).toBeGreaterThan(5);
    expect((await db.agentTask.findMany({ where: { user_id: "usr_b_stg" }, select: { dedupe_key: true, user_strategy_id: true } })).sort((a, b) => a.dedupe_key!.localeCompare(b.dedupe_key!))).toEqual(
      wallet9.map((id) => ({ dedupe_key: `ledger:${id}:ust_b_alert`, user_strategy_id: "ust_b_alert" })).sort((a, b) => a.dedupe_key.localeCompare(b.dedupe_key)),
    );
    expect(await db.agentTask.count({ where: { user_id: { in: users.filter((user) => user !== "usr_b_stg") } } })).toBe(0);
  });

  it("leaves an event that fails mid-transaction unapplied, applies those before it, and retries it and the rest once", async () => {
    await db.userRule.create({ data: { id: "rul_f_all", user_id: "usr_f_tx", name: "All", trigger_type: "transaction_received", trigger: {}, action_type: "notification", action: {} } });
    const events = range(1001, 1040).map((id) => ledgerEvent(id, id % 2 === 0 ? "usr_f_tx" : "usr_f_none"));
    const { finance, state, left } = outbox(events);
    const consumer = ledgerEventConsumer({ db, finance, logger });
    // the database refuses event 1020's execution row, after its processed mark was written in its transaction
    await database.exec(`
      CREATE FUNCTION agents.refuse_1020() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.event_key = 'ledger:1020' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_1020 BEFORE INSERT ON agents.user_rule_executions FOR EACH ROW EXECUTE FUNCTION agents.refuse_1020();`);

    expect(await consumer.run(job)).toEqual({ outcome: "later", afterMs: 5000 });
    expect(state.acknowledged).toEqual([]);
    const txEvents = (from: number, to: number) => range(from, to).filter((id) => id % 2 === 0);
    expect(await executionsOf("rul_f_all")).toEqual(keysOf(txEvents(1001, 1019)).map((event_key) => ({ event_key, outcome: "fired" })));
    expect(await db.notification.count({ where: { user_id: "usr_f_tx" } })).toBe(txEvents(1001, 1019).length);
    // nothing of 1020 nor of the events after it that react; the events that cause nothing are recorded
    expect(await processedIds(1001, 1040)).toEqual([...range(1001, 1040).filter((id) => id % 2 === 1), ...txEvents(1001, 1019)].sort((a, b) => a - b));

    // the same failure again: the pass stops at the same place, nothing doubled
    expect(await consumer.run(job)).toEqual({ outcome: "later", afterMs: 5000 });
    expect(await executionsOf("rul_f_all")).toHaveLength(txEvents(1001, 1019).length);

    await database.exec(`DROP TRIGGER refuse_1020 ON agents.user_rule_executions; DROP FUNCTION agents.refuse_1020();`);
    expect(await consumer.run(job)).toEqual({ outcome: "later", afterMs: 1000 });
    expect(left()).toBe(0);
    expect(state.acknowledged).toEqual([range(1001, 1040).map(String)]);
    expect(await processedIds(1001, 1040)).toEqual(range(1001, 1040));
    expect(await executionsOf("rul_f_all")).toEqual(keysOf(txEvents(1001, 1040)).map((event_key) => ({ event_key, outcome: "fired" })));
    expect(await db.notification.count({ where: { user_id: "usr_f_tx" } })).toBe(txEvents(1001, 1040).length);
    expect(await db.notification.count({ where: { user_id: "usr_f_none" } })).toBe(0);
  });

  it("reads no balance and applies nothing half when finance fails before an event's transaction", async () => {
    await db.userRule.create({ data: { id: "rul_g_low", user_id: "usr_g_bal", name: "Low", trigger_type: "balance_threshold", trigger: { wallet_id: 1, asset: "USDC", threshold: "50", crossing: "below" }, action_type: "notification", action: {} } });
    const events = range(2001, 2006).map((id) => ledgerEvent(id, "usr_g_bal"));
    const { finance, state, left } = outbox(events, (eventId) => (Number(eventId) % 2 === 1 ? "10" : "100"));
    const consumer = ledgerEventConsumer({ db, finance, logger });
    state.failBalanceOf = "2003";
    expect(await consumer.run(job)).toEqual({ outcome: "later", afterMs: 5000 });
    expect(await processedIds(2001, 2006)).toEqual([2001, 2002]);
    expect(await executionsOf("rul_g_low")).toEqual([{ event_key: "ledger:2001", outcome: "fired" }]);
    expect((await db.userRule.findUniqueOrThrow({ where: { id: "rul_g_low" } })).state).toEqual({ side: "above" });

    state.failBalanceOf = null;
    await consumer.run(job);
    expect(left()).toBe(0);
    expect(await processedIds(2001, 2006)).toEqual(range(2001, 2006));
    expect(await executionsOf("rul_g_low")).toEqual(keysOf([2001, 2003, 2005]).map((event_key) => ({ event_key, outcome: "fired" })));
  });
});
