import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../lib/db/database.ts";
import { queryRows } from "../../../lib/db/direct-query.ts";
import { applyMigrations } from "../../../lib/db/migrations.ts";
import { createFinanceDb, Prisma, type FinanceDb } from "../../../subgraphs/finance/db.ts";
import { listTransactionsText, type FeedItemView } from "../../../subgraphs/finance/transactions/list-transactions.ts";
import type { TransactionFilterInput } from "../../../subgraphs/finance/transactions/transaction-filter.ts";
import { loadTransactions } from "../../../subgraphs/finance/transactions/transaction-view.ts";
import { feedSeedStatements } from "../../support/feed-seed.ts";
import { freshDatabaseUrl } from "../../support/test-database.ts";

// Issue 30: the feed's statement runs on the database directly (lib/db/direct-query.ts), not
// through Prisma's runtime; an interactive transaction still runs it through Prisma. Both must
// answer the same pages, value for value, on PGlite and on PostgreSQL.

const USER = "usr_direct";
let database: Database;
let db: FinanceDb;

beforeAll(async () => {
  database = await openDatabase({ databaseUrl: await freshDatabaseUrl(), dataDir: "memory://" });
  await applyMigrations(database, ["finance"]);
  for (const seed of [
    { user_id: USER, count: 400, wallet_ids: [1, 2], id_prefix: "dq", newest: new Date(Date.UTC(2026, 10, 1)) },
    { user_id: "usr_direct_other", count: 50, wallet_ids: [3], id_prefix: "do" },
  ])
    for (const statement of feedSeedStatements(seed)) await database.exec(statement);
  // what the seed lacks: a note, a merchant with a name but no code, sub-millisecond instants
  // (the meta's date range is the table's own timestamptz), a row without a history
  await database.exec(`
    INSERT INTO "finance"."transactions" ("id","user_id","type","status","direction","amount","currency","decimals","amount_usd","category","description",
      "merchant_name","merchant_mcc","card_id","note","timestamp","created_at","updated_at")
    VALUES ('txn_dq_note', '${USER}', 'card_purchase', 'completed', 'out', 12.5, 'USD', 2, 12.5, 'groceries', 'with a note "quoted" ✓', 'Shop', NULL, 'crd_dq',
      'a note\nover two lines', '2026-11-02 10:00:00.569999+00', '2026-11-02 10:00:00.57+00', '2026-11-02 10:00:01.000001+00'),
      ('txn_dq_first', '${USER}', 'fee', 'completed', 'out', 0.000001, 'USD', 6, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
      '2024-01-01 00:00:00.999999+00', '2024-01-01 00:00:00.999999+00', '2024-01-01 00:00:00.999999+00')`);
  db = createFinanceDb(database);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.close();
});

const DAY = 86_400_000;
const NEWEST = Date.UTC(2026, 10, 1);
const FILTERS: TransactionFilterInput[] = [
  {},
  { category: "groceries" },
  { direction: "out", status: "completed", type: "card_purchase" },
  { wallet_id: 1 },
  { wallet_ids: [2] },
  { card_id: "crd_dq" },
  { period_start: new Date(NEWEST - 300 * DAY), period_end: new Date(NEWEST - 100 * DAY + 123) },
  { amount_min: "10", amount_max: "150.5" },
  { status: "pending" },
  { category: "travel", period_start: new Date(NEWEST + 400 * DAY) },
];
const PAGES = [undefined, { limit: 7 }, { limit: 20, offset: 35 }, { limit: 100, offset: 10_000 }];

/** The page with its items' text parsed, as the feed's resolver answers objects. */
async function listTransactions(...args: Parameters<typeof listTransactionsText>) {
  const { items_text, ...page } = await listTransactionsText(...args);
  return { items: JSON.parse(items_text) as FeedItemView[], ...page };
}

describe("the feed's statement on the database directly", () => {
  it("answers every page and meta exactly as through Prisma, on this database", async () => {
    for (const filter of FILTERS)
      for (const page of PAGES)
        for (const meta of [false, true]) {
          const options = { user_id: USER, filter, page, meta };
          const direct = await listTransactions(db, options);
          const throughPrisma = await db.$transaction((tx) => listTransactions(tx, options));
          const label = JSON.stringify(options);
          expect(direct, label).toEqual(throughPrisma);
          expect(JSON.stringify(direct), label).toBe(JSON.stringify(throughPrisma));
        }
    const whole = await listTransactions(db, { user_id: USER, page: { limit: 100 }, meta: true });
    expect(whole.pagination.total).toBe(402);
    expect(whole.items.find((item) => item.id === "txn_dq_note")).toMatchObject({ note: "a note\nover two lines", merchant: { name: "Shop", mcc: null } });
    // the items are the ORM's views of the rows, instants as the epoch ms the Timestamp scalar answers for a Date
    const views = await loadTransactions(db, whole.items.map((item) => item.id));
    const epochMs = views.map((view) => ({
      ...view,
      timestamp: view.timestamp.getTime(),
      created_at: view.created_at.getTime(),
      updated_at: view.updated_at.getTime(),
      status_history: view.status_history.map((change) => ({ ...change, changed_at: change.changed_at.getTime() })),
    }));
    expect(whole.items).toEqual(epochMs);
  });

  it("is taken outside a transaction only, and refuses a column Prisma would read otherwise", async () => {
    const bigint = Prisma.sql`SELECT 1::bigint AS n`;
    // through Prisma (the interactive transaction) an int8 is a BigInt; pg would give a string
    expect(await db.$transaction((tx) => queryRows(tx, bigint))).toEqual([{ n: 1n }]);
    await expect(queryRows(db, bigint)).rejects.toThrow(/type OID 20/);
    expect(await queryRows(db, Prisma.sql`SELECT ${"x"}::text AS t, ${3}::int AS i, '{"a":[1]}'::json AS j`)).toEqual([{ t: "x", i: 3, j: { a: [1] } }]);
  });
});
