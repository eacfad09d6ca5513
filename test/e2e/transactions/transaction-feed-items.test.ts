import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../lib/db/database.ts";
import { applyMigrations } from "../../../lib/db/migrations.ts";
import { feedSeedStatements } from "../../support/feed-seed.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// Issue 30: the feed copies each transaction's stored item (finance.transactions.feed_item), which
// triggers keep in the statement of every write to the row or its status history. After every kind
// of write the stored items must be exactly what the feed built from the rows before they were
// stored: the item below is that statement's, written out here, not the migration's function.

const USER = "usr_items";

/** Every transaction whose stored item is missing or differs from a build from its row and history now (in its wire form: migration feed_item_wire_form). */
const STALE = `
  SELECT t.id FROM finance.transactions t
  CROSS JOIN LATERAL (SELECT row_to_json(item)::text AS item FROM (SELECT t."id", t."type", t."status", t."direction", trim_scale(t."amount")::text AS "amount",
    (SELECT row_to_json(a) FROM (SELECT t."asset_symbol" AS "symbol", t."decimals") a WHERE t."asset_symbol" IS NOT NULL) AS "asset", t."currency",
    trim_scale(t."amount_usd")::text AS "amount_usd", t."category", t."description",
    (SELECT row_to_json(m) FROM (SELECT t."merchant_name" AS "name", t."merchant_mcc" AS "mcc") m WHERE t."merchant_name" IS NOT NULL OR t."merchant_mcc" IS NOT NULL) AS "merchant",
    t."wallet_id", t."card_id", t."bank_account_id", t."counterparty", t."chain_id", t."tx_hash", t."note", floor(extract(epoch FROM t."timestamp") * 1000)::bigint AS "timestamp",
    floor(extract(epoch FROM t."created_at") * 1000)::bigint AS "created_at", floor(extract(epoch FROM t."updated_at") * 1000)::bigint AS "updated_at",
    (SELECT coalesce('[' || string_agg(row_to_json(c)::text, ',' ORDER BY h.id) || ']', '[]')::json
     FROM finance.transaction_status_history h CROSS JOIN LATERAL (SELECT h."from", h."to", floor(extract(epoch FROM h."changed_at") * 1000)::bigint AS "changed_at") c
     WHERE h.transaction_id = t.id) AS "status_history") item) built
  WHERE t.feed_item IS NULL OR t.feed_item::text <> built.item
  ORDER BY t.id`;

let url: string | undefined;
let database: Database;

async function stale(): Promise<string[]> {
  return (await database.query<{ id: string }>(STALE)).map((row) => row.id);
}

/** Runs one write statement; then every stored item must be current. */
async function write(sql: string): Promise<void> {
  await database.exec(sql);
  expect(await stale(), sql).toEqual([]);
}

async function item(id: string): Promise<{ status: string; note: string | null; category: string | null; status_history: { from: string | null; to: string }[] }> {
  const [row] = await database.query<{ item: string }>(`SELECT feed_item::text AS item FROM finance.transactions WHERE id = $1`, [id]);
  return JSON.parse(row!.item);
}

beforeAll(async () => {
  url = await freshDatabaseUrl();
  database = await openDatabase({ databaseUrl: url, dataDir: "memory://" });
  await applyMigrations(database, ["finance"]);
  // many rows and their histories, each in one statement (as the bench's seed and an import write them)
  for (const statement of feedSeedStatements({ user_id: USER, count: 400, wallet_ids: [1, 2], id_prefix: "items" })) await database.exec(statement);
});
afterAll(() => database?.close());

describe("stored feed items", () => {
  it("are the rows' items after a seed of many rows and histories", async () => {
    expect(await stale()).toEqual([]);
    expect((await item("txn_items_000000001")).status_history.length).toBeGreaterThan(0);
  });

  it("follow a new movement, its status moves, note, category, price and history edits, each in its own statement", async () => {
    const id = "txn_items_new";
    // recordMovement: the row, then its first history row
    await write(`INSERT INTO finance.transactions (id, user_id, type, status, direction, amount, asset_symbol, decimals, wallet_id, chain_id, "timestamp")
      VALUES ('${id}', '${USER}', 'deposit', 'pending', 'in', 1.500000000000000000, 'USDC', 6, 1, 8453, now())`);
    expect((await item(id)).status_history).toEqual([]);
    await write(`INSERT INTO finance.transaction_status_history (transaction_id, "from", "to") VALUES ('${id}', NULL, 'pending')`);
    expect((await item(id)).status_history).toMatchObject([{ from: null, to: "pending" }]);
    // moveTransactionStatus: the status, then its history row
    for (const [from, to] of [["pending", "processing"], ["processing", "completed"]]) {
      await write(`UPDATE finance.transactions SET status = '${to}', updated_at = now() + interval '1 second' WHERE id = '${id}'`);
      await write(`INSERT INTO finance.transaction_status_history (transaction_id, "from", "to", changed_at) VALUES ('${id}', '${from}', '${to}', now() + interval '1 second')`);
    }
    expect(await item(id)).toMatchObject({ status: "completed", status_history: [{ to: "pending" }, { to: "processing" }, { to: "completed" }] });
    // the user's note, a categorisation, a price found later
    await write(`UPDATE finance.transactions SET note = 'rent "share"' WHERE id = '${id}'`);
    await write(`UPDATE finance.transactions SET category = 'groceries' WHERE user_id = '${USER}' AND direction = 'out' AND category IS NULL`);
    await write(`UPDATE finance.transactions SET amount_usd = 1.5 WHERE id = '${id}'`);
    expect(await item(id)).toMatchObject({ note: 'rent "share"', amount_usd: "1.5" });
    // a write to no column of the item keeps it as it was, and still current
    await write(`UPDATE finance.transactions SET automation_cause = '{"root": "rule"}' WHERE id = '${id}'`);
  });

  it("follow history rows edited, moved to another transaction and deleted, many in one statement", async () => {
    await write(`UPDATE finance.transaction_status_history SET changed_at = changed_at + interval '1 minute' WHERE transaction_id LIKE 'txn\\_items\\_0000001%'`);
    // a history row moved from one transaction to another changes both
    await write(`UPDATE finance.transaction_status_history SET transaction_id = 'txn_items_000000002'
      WHERE id = (SELECT max(id) FROM finance.transaction_status_history WHERE transaction_id = 'txn_items_000000003')`);
    await write(`DELETE FROM finance.transaction_status_history WHERE transaction_id IN ('txn_items_000000004', 'txn_items_000000005')`);
    expect((await item("txn_items_000000004")).status_history).toEqual([]);
    // and a transaction's own rows, rewritten many at once
    await write(`UPDATE finance.transactions SET status = 'failed', updated_at = now() WHERE user_id = '${USER}' AND status = 'pending'`);
    await write(`DELETE FROM finance.transaction_status_history WHERE transaction_id = 'txn_items_000000006'`);
    await write(`DELETE FROM finance.transactions WHERE id = 'txn_items_000000006'`);
  });

  // row locks and concurrent sessions are PostgreSQL's (PGlite has one connection)
  it.skipIf(!onPostgres)("include a history row committed by a transaction another history write waited for", async () => {
    const id = "txn_items_000000010";
    const [first, second, prober] = [new pg.Client(url), new pg.Client(url), new pg.Client(url)];
    await Promise.all([first.connect(), second.connect(), prober.connect()]);
    try {
      // the first writes a history row (its trigger locks the transaction's row) and holds it
      await first.query("BEGIN");
      await first.query(`INSERT INTO finance.transaction_status_history (transaction_id, "from", "to") VALUES ($1, 'completed', 'failed')`, [id]);
      const secondPid = (await second.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      const written = second.query(`INSERT INTO finance.transaction_status_history (transaction_id, "from", "to") VALUES ($1, 'failed', 'completed')`, [id]);
      // until the second's rebuild waits on the row
      for (let waiting = false; !waiting; ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const [activity] = (await prober.query<{ wait_event_type: string | null }>("SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1", [secondPid])).rows;
        waiting = activity?.wait_event_type === "Lock";
      }
      await first.query("COMMIT");
      await written;
    } finally {
      await Promise.all([first.end(), second.end(), prober.end()]);
    }
    expect((await item(id)).status_history.slice(-2)).toMatchObject([{ to: "failed" }, { to: "completed" }]);
    expect(await stale()).toEqual([]);
  });
});
