import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../lib/db/database.ts";
import { applyMigrations, defaultMigrationsRoot } from "../../../lib/db/migrations.ts";
import { feedSeedStatements } from "../../support/feed-seed.ts";
import { freshDatabaseUrl } from "../../support/test-database.ts";

// Issue 30: migration feed_item_wire_form stores each feed item as JSON.stringify writes it, so a
// REST page writes the stored text unparsed. Rows written before it must answer as they did: the
// old answer was the old stored item parsed and written again by JSON.stringify.

const MIGRATION = "20261127213000_feed_item_wire_form";
const USER = "usr_backfill";

let database: Database;
let before: string;

/** Every row's stored item text, by id. */
async function storedItems(): Promise<Map<string, string>> {
  const rows = await database.query<{ id: string; item: string }>(`SELECT id, feed_item::text AS item FROM finance.transactions ORDER BY id`);
  return new Map(rows.map((row) => [row.id, row.item]));
}

beforeAll(async () => {
  // the finance migrations up to the one before feed_item_wire_form
  before = await mkdtemp(join(tmpdir(), "feed-backfill-"));
  const source = join(defaultMigrationsRoot, "finance", "migrations");
  const names = (await readdir(source)).filter((name) => name < MIGRATION);
  for (const name of names) await cp(join(source, name), join(before, "finance", "migrations", name), { recursive: true });
  database = await openDatabase({ databaseUrl: await freshDatabaseUrl(), dataDir: "memory://" });
  await applyMigrations(database, ["finance"], { migrationsRoot: before });
  for (const statement of feedSeedStatements({ user_id: USER, count: 300, wallet_ids: [1, 2], id_prefix: "backfill" })) await database.exec(statement);
  // what the seed does not write: quotes, backslashes, control characters and non-ASCII text in
  // merchant names and notes, trailing zeros, microseconds, a history of every status
  await database.exec(`
    INSERT INTO finance.transactions (id, user_id, type, status, direction, amount, currency, decimals, amount_usd, merchant_name, merchant_mcc, card_id, note, "timestamp", created_at, updated_at)
    VALUES ('txn_backfill_odd', '${USER}', 'card_purchase', 'failed', 'out', 12.50000, 'EUR', 2, 13.100, E'Caf\\u00e9 "Nero" \\\\ \\u6771\\u4eac \\U0001F600 \\u0001\\t\\n/', '5814', 'crd_backfill',
      E'split "50/50"\\\\\\r\\u2028 \\u001f', '2026-03-01 10:00:00.123456+00', '2026-03-01 10:00:00.999999+00', '2026-03-01 10:00:01.000001+00');
    INSERT INTO finance.transaction_status_history (transaction_id, "from", "to", changed_at) VALUES
      ('txn_backfill_odd', NULL, 'pending', '2026-03-01 10:00:00.000400+00'),
      ('txn_backfill_odd', 'pending', 'processing', '2026-03-01 10:00:00.999600+00'),
      ('txn_backfill_odd', 'processing', 'failed', '2026-03-01 10:00:01.000001+00');
  `);
});
afterAll(async () => {
  await database?.close();
  if (before) await rm(before, { recursive: true, force: true });
});

describe("migration feed_item_wire_form", () => {
  it("rewrites every stored item as JSON.stringify writes the item it stored before", async () => {
    const old = await storedItems();
    expect(old.size).toBe(301);
    // before, the items held json_build_object's and json_agg's text, spaced
    expect(old.get("txn_backfill_odd")).toContain('"merchant":{"name" : ');
    expect(await applyMigrations(database, ["finance"])).toEqual([{ subgraph: "finance", name: MIGRATION }]);
    const now = await storedItems();
    expect([...now.keys()]).toEqual([...old.keys()]);
    for (const [id, text] of old) expect(now.get(id), id).toBe(JSON.stringify(JSON.parse(text)));
    const odd = JSON.parse(now.get("txn_backfill_odd")!);
    expect(odd).toMatchObject({
      amount: "12.5",
      amount_usd: "13.1",
      merchant: { name: 'Café "Nero" \\ 東京 😀 \u0001\t\n/', mcc: "5814" },
      note: 'split "50/50"\\\r\u2028 \u001f',
      // the columns are timestamptz(3): PostgreSQL rounds microseconds to the millisecond as it stores them
      timestamp: Date.UTC(2026, 2, 1, 10, 0, 0, 123),
      created_at: Date.UTC(2026, 2, 1, 10, 0, 1, 0),
      updated_at: Date.UTC(2026, 2, 1, 10, 0, 1, 0),
    });
    expect(odd.status_history.map((change: { changed_at: number }) => change.changed_at)).toEqual([
      Date.UTC(2026, 2, 1, 10, 0, 0, 0),
      Date.UTC(2026, 2, 1, 10, 0, 1, 0),
      Date.UTC(2026, 2, 1, 10, 0, 1, 0),
    ]);
  });

  it("leaves the triggers writing the new form", async () => {
    await database.exec(`UPDATE finance.transactions SET note = E'x "y" \\\\ \\u00e9', updated_at = '2026-03-02 00:00:00.5004+00' WHERE id = 'txn_backfill_odd'`);
    await database.exec(`INSERT INTO finance.transaction_status_history (transaction_id, "from", "to", changed_at) VALUES ('txn_backfill_odd', 'failed', 'completed', '2026-03-02 00:00:00.0001+00')`);
    const text = (await storedItems()).get("txn_backfill_odd")!;
    expect(text).toBe(JSON.stringify(JSON.parse(text)));
    expect(JSON.parse(text)).toMatchObject({ note: 'x "y" \\ é', updated_at: Date.UTC(2026, 2, 2, 0, 0, 0, 500) });
    expect(JSON.parse(text).status_history).toHaveLength(4);
  });
});
