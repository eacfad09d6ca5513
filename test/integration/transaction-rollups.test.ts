import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../lib/db/database.ts";
import { applyMigrations } from "../../lib/db/migrations.ts";
import type { Prisma } from "../../subgraphs/finance/db.ts";
import { feedCountSql } from "../../subgraphs/finance/transactions/list-transactions.ts";
import type { TransactionFilterInput } from "../../subgraphs/finance/transactions/transaction-filter.ts";
import { transactionMetaSql } from "../../subgraphs/finance/transactions/transaction-meta.ts";
import { wholeMonths } from "../../subgraphs/finance/transactions/transaction-rollups.ts";
import { feedSeedStatements } from "../support/feed-seed.ts";

// Issue 9, the feed's performance: meta and pagination.total read the trigger-kept rollups for
// whole months; they must agree exactly with the same aggregates read from the rows.

let database: Database;
const USER = "usr_rollup";

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await applyMigrations(database, ["finance"]);
  for (const seed of [
    { user_id: USER, count: 3000, wallet_ids: [1, 2], id_prefix: "ru" },
    { user_id: "usr_rollup_other", count: 500, wallet_ids: [3], id_prefix: "ro" },
  ])
    for (const statement of feedSeedStatements(seed)) await database.exec(statement);
});
afterAll(() => database?.close());

async function run<T>(sql: Prisma.Sql): Promise<T> {
  const [row] = await database.query<T>(sql.text, sql.values);
  return row!;
}

/** The same filter read from the rows: an amount bound every amount passes takes the rows' path. */
const fromRows = (filter: TransactionFilterInput): TransactionFilterInput => ({ ...filter, amount_min: "0" });

async function expectRollupsAgree(filter: TransactionFilterInput) {
  expect(await run(transactionMetaSql(USER, filter)), JSON.stringify(filter)).toEqual(await run(transactionMetaSql(USER, fromRows(filter))));
  expect(await run(feedCountSql(USER, filter))).toEqual(await run(feedCountSql(USER, fromRows(filter))));
}

const DAY = 86_400_000;
const now = Date.now();
const FILTERS: TransactionFilterInput[] = [
  {},
  { category: "groceries" },
  { direction: "out", status: "completed" },
  { type: "card_purchase", direction: "out" },
  { period_start: new Date(now - 200 * DAY) },
  { period_end: new Date(now - 100 * DAY) },
  { period_start: new Date(now - 400 * DAY), period_end: new Date(now - 35 * DAY), category: "restaurants" },
  // whole months exactly, and a period inside one month
  { period_start: new Date(Date.UTC(2026, 0, 1)), period_end: new Date(Date.UTC(2026, 6, 1)) },
  { period_start: new Date(Date.UTC(2026, 4, 3, 12)), period_end: new Date(Date.UTC(2026, 4, 20)) },
  // two partial months and no whole one between them: the two edges' rows meet at the month start
  { period_start: new Date(Date.UTC(2026, 2, 10)), period_end: new Date(Date.UTC(2026, 3, 15)), direction: "out" },
];

describe("transaction rollups", () => {
  it("answer meta and totals exactly as the rows do, for every kind of filter", async () => {
    for (const filter of FILTERS) await expectRollupsAgree(filter);
  });

  it("follow status moves, category changes and deletions, extremes included", async () => {
    // the user's earliest completed outflow moves to failed, then is recategorised, then deleted
    const [first] = await database.query<{ id: string }>(`SELECT id FROM finance.transactions WHERE user_id = $1 AND status = 'processing' ORDER BY "timestamp" LIMIT 1`, [USER]);
    await database.exec(`UPDATE finance.transactions SET status = 'failed' WHERE id = '${first!.id}'`);
    await database.exec(`UPDATE finance.transactions SET category = NULL WHERE user_id = '${USER}' AND category = 'travel' AND "timestamp" < now() - interval '300 days'`);
    await database.exec(`UPDATE finance.transactions SET category = 'health' WHERE user_id = '${USER}' AND category IS NULL AND direction = 'in'`);
    const oldest = `SELECT id FROM finance.transactions WHERE user_id = '${USER}' ORDER BY "timestamp" LIMIT 25`;
    await database.exec(`DELETE FROM finance.transaction_status_history WHERE transaction_id IN (${oldest})`);
    await database.exec(`DELETE FROM finance.transactions WHERE id IN (${oldest})`);
    for (const filter of FILTERS) await expectRollupsAgree(filter);
    // and the rollups are what a rebuild from the rows would be
    const [drift] = await database.query<{ n: number }>(`
      SELECT count(*)::int AS n FROM (
        (SELECT user_id, month, direction, category, status, n, earliest, latest, usd FROM finance.transaction_rollups
         EXCEPT SELECT user_id, date_trunc('month', "timestamp", 'UTC'), direction, coalesce(category, ''), status, count(*), min("timestamp"), max("timestamp"), coalesce(sum(amount_usd), 0) FROM finance.transactions GROUP BY 1, 2, 3, 4, 5)
        UNION ALL
        (SELECT user_id, date_trunc('month', "timestamp", 'UTC'), direction, coalesce(category, ''), status, count(*), min("timestamp"), max("timestamp"), coalesce(sum(amount_usd), 0) FROM finance.transactions GROUP BY 1, 2, 3, 4, 5
         EXCEPT SELECT user_id, month, direction, category, status, n, earliest, latest, usd FROM finance.transaction_rollups)) d`);
    expect(drift!.n).toBe(0);
    // and so are the whole-history totals (the unfiltered feed's meta and total)
    const [totalsDrift] = await database.query<{ n: number }>(`
      SELECT count(*)::int AS n FROM (
        (SELECT user_id, direction, category, status, n, usd FROM finance.transaction_totals
         EXCEPT SELECT user_id, direction, coalesce(category, ''), status, count(*), coalesce(sum(amount_usd), 0) FROM finance.transactions GROUP BY 1, 2, 3, 4)
        UNION ALL
        (SELECT user_id, direction, coalesce(category, ''), status, count(*), coalesce(sum(amount_usd), 0) FROM finance.transactions GROUP BY 1, 2, 3, 4
         EXCEPT SELECT user_id, direction, category, status, n, usd FROM finance.transaction_totals)) d`);
    expect(totalsDrift!.n).toBe(0);
  });

  it("take whole UTC months from the first month start at or after the period's start", () => {
    expect(wholeMonths(new Date(Date.UTC(2026, 4, 3)), new Date(Date.UTC(2026, 7, 15)))).toEqual({ fullStart: new Date(Date.UTC(2026, 5, 1)), fullEnd: new Date(Date.UTC(2026, 7, 1)) });
    expect(wholeMonths(new Date(Date.UTC(2026, 4, 1)), null)).toEqual({ fullStart: new Date(Date.UTC(2026, 4, 1)), fullEnd: null });
    expect(wholeMonths(null, new Date(Date.UTC(2026, 11, 31, 23)))).toEqual({ fullStart: null, fullEnd: new Date(Date.UTC(2026, 11, 1)) });
  });
});
