import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../lib/db/database.ts";
import { applyMigrations } from "../../../lib/db/migrations.ts";
import { Prisma } from "../../../subgraphs/finance/db.ts";
import { feedCountSql, feedPageSql, feedSql } from "../../../subgraphs/finance/transactions/list-transactions.ts";
import { isUnfiltered, transactionCondition, type TransactionFilterInput } from "../../../subgraphs/finance/transactions/transaction-filter.ts";
import { transactionMetaSql } from "../../../subgraphs/finance/transactions/transaction-meta.ts";
import { filteredGroupsSql } from "../../../subgraphs/finance/transactions/transaction-rollups.ts";
import { feedSeedStatements } from "../../support/feed-seed.ts";
import { freshDatabaseUrl } from "../../support/test-database.ts";

// Issue 30, eighth round: the feed's statement joins the page's items from an ARRAY of its
// ordered query and sums the meta's spending divisor with the totals. Its rows must be the
// statement's before (string_agg(... ORDER BY), a window over the spending), value for value and
// text for text, on the edges the new forms meet: a null stored item, no row at all, a user
// without transactions, spending groups of no, zero or only failed USD.

const USER = "usr_stmt";
const EDGE = "usr_stmt_edge";
const NOBODY = "usr_stmt_none";
let database: Database;

beforeAll(async () => {
  database = await openDatabase({ databaseUrl: await freshDatabaseUrl(), dataDir: "memory://" });
  await applyMigrations(database, ["finance"]);
  for (const statement of feedSeedStatements({ user_id: USER, count: 300, wallet_ids: [1, 2], id_prefix: "st", newest: new Date(Date.UTC(2026, 10, 1)) })) await database.exec(statement);
  const row = (id: string, status: string, direction: string, usd: string, category: string, at: string) =>
    `('${id}', '${EDGE}', 'card_purchase', '${status}', '${direction}', 10, 'USD', 2, ${usd}, ${category}, '2026-10-${at} 10:00:00+00', '2026-10-${at} 10:00:00+00', '2026-10-${at} 10:00:00+00')`;
  await database.exec(`
    INSERT INTO "finance"."transactions" ("id","user_id","type","status","direction","amount","currency","decimals","amount_usd","category","timestamp","created_at","updated_at")
    VALUES ${[
      row("txn_se_zero", "completed", "out", "0", "'groceries'", "01"),
      row("txn_se_failed", "failed", "out", "25", "'travel'", "02"),
      row("txn_se_unpriced", "completed", "out", "NULL", "'health'", "03"),
      row("txn_se_spent", "completed", "out", "12.345", "NULL", "04"),
      row("txn_se_spent2", "pending", "out", "7.655", "'shopping'", "05"),
      row("txn_se_in", "completed", "in", "100", "NULL", "06"),
    ].join(",")}`);
  // a row whose stored item is missing (the column is nullable; its trigger leaves an edit of it alone)
  await database.exec(`UPDATE "finance"."transactions" SET "feed_item" = NULL WHERE "id" IN ('txn_se_spent', (SELECT "id" FROM "finance"."transactions" WHERE "user_id" = '${USER}' ORDER BY "timestamp" DESC, "id" DESC OFFSET 3 LIMIT 1))`);
});
afterAll(async () => {
  await database?.close();
});

/** The items' text as the feed's statement wrote it before: string_agg of the page's rows in its order. */
const OLD_ITEMS = (item: Prisma.Sql) =>
  Prisma.sql`coalesce('[' || string_agg(coalesce(${item}::text, 'null'), ',' ORDER BY page."timestamp" DESC, page."id" DESC) || ']', '[]')`;

function oldFeedSql(where: Prisma.Sql, limit: number, offset: number, counts: Prisma.Sql, userOnly: boolean): Prisma.Sql {
  if (userOnly && offset === 0)
    return Prisma.sql`SELECT counts.*, (SELECT ${OLD_ITEMS(Prisma.sql`page."feed_item"`)}
      FROM (SELECT "id", "timestamp", "feed_item" FROM "finance"."transactions" WHERE ${where} ORDER BY "timestamp" DESC, "id" DESC LIMIT ${Prisma.raw(String(limit))}) page) AS items
      FROM (${counts}) counts`;
  return Prisma.sql`SELECT counts.*, (SELECT ${OLD_ITEMS(Prisma.sql`(SELECT t."feed_item" FROM "finance"."transactions" t WHERE t."id" = page."id")`)}
      FROM (${feedPageSql(where, limit, offset)}) page) AS items
    FROM (${counts}) counts`;
}

/** The meta as its statement computed it before: the spending's sum by a window over a spending CTE. */
function oldMetaSql(userId: string, filter: TransactionFilterInput): Prisma.Sql {
  return Prisma.sql`
    WITH parts AS (${filteredGroupsSql(userId, filter)}), groups AS (
      SELECT "direction", category, sum(n) AS n, min(earliest) AS earliest, max(latest) AS latest, sum(usd) FILTER (WHERE "status" <> 'failed') AS usd
      FROM parts GROUP BY 1, 2
    ), spending AS (
      SELECT category, usd AS total, round(usd * 100 / sum(usd) OVER (), 2) AS percentage FROM groups WHERE "direction" = 'out' AND usd > 0
    ), totals AS (
      SELECT coalesce(sum(n), 0)::int AS transaction_count, min(earliest) AS earliest, max(latest) AS latest,
        coalesce(sum(usd) FILTER (WHERE "direction" = 'in'), 0) AS gross_in, coalesce(sum(usd) FILTER (WHERE "direction" = 'out'), 0) AS gross_out
      FROM groups
    )
    SELECT transaction_count, earliest, latest, trim_scale(gross_in)::text AS gross_in, trim_scale(gross_out)::text AS gross_out, trim_scale(gross_in - gross_out)::text AS net,
      (SELECT coalesce(json_agg(json_build_object('category', category, 'total_amount', trim_scale(total)::text, 'percentage_of_total', percentage::text) ORDER BY total DESC, category), '[]')
       FROM spending) AS categories
    FROM totals`;
}

const FILTERS: TransactionFilterInput[] = [{}, { direction: "out" }, { category: "groceries" }, { period_start: new Date(Date.UTC(2026, 0, 15)) }, { type: "card_purchase" }, { status: "failed" }];
const PAGES = [
  { limit: 50, offset: 0 },
  { limit: 1, offset: 0 },
  { limit: 7, offset: 2 },
  { limit: 100, offset: 10_000 },
];

async function rows(sql: Prisma.Sql): Promise<Record<string, unknown>[]> {
  return database.query(sql.text, sql.values);
}

describe("the feed's statement", () => {
  it("answers every page, total and meta as its statement before, text for text", async () => {
    let nullItems = 0;
    let emptyPages = 0;
    let zeroSpending = 0;
    for (const user of [USER, EDGE, NOBODY])
      for (const filter of FILTERS)
        for (const { limit, offset } of PAGES)
          for (const meta of [false, true]) {
            const where = transactionCondition(user, filter);
            const userOnly = isUnfiltered(filter);
            const counts = meta ? transactionMetaSql(user, filter) : feedCountSql(user, filter);
            const [now] = await rows(feedSql(where, limit, offset, counts, userOnly));
            const [before] = await rows(oldFeedSql(where, limit, offset, meta ? oldMetaSql(user, filter) : feedCountSql(user, filter), userOnly));
            const label = JSON.stringify({ user, filter, limit, offset, meta });
            expect(now, label).toEqual(before);
            expect(JSON.stringify(now), label).toBe(JSON.stringify(before));
            const items = JSON.parse(now!.items as string) as unknown[];
            nullItems += items.filter((item) => item === null).length;
            if (items.length === 0) emptyPages++;
            if (meta) zeroSpending += Number((now!.categories as unknown[]).length === 0);
          }
    // the edges were met: missing items written as null, pages without a row, meta without spending
    expect(nullItems).toBeGreaterThan(0);
    expect(emptyPages).toBeGreaterThan(0);
    expect(zeroSpending).toBeGreaterThan(0);
  });

  it("writes a missing item as null in its place, and no row as []", async () => {
    const [page] = await rows(feedSql(transactionCondition(EDGE), 10, 0, feedCountSql(EDGE), true));
    expect(JSON.parse(page!.items as string).map((item: { id: string } | null) => item?.id ?? null)).toEqual(["txn_se_in", "txn_se_spent2", null, "txn_se_unpriced", "txn_se_failed", "txn_se_zero"]);
    const [later] = await rows(feedSql(transactionCondition(EDGE, { direction: "out" }), 2, 1, feedCountSql(EDGE, { direction: "out" })));
    expect(JSON.parse(later!.items as string).map((item: { id: string } | null) => item?.id ?? null)).toEqual([null, "txn_se_unpriced"]);
    const [none] = await rows(feedSql(transactionCondition(NOBODY), 50, 0, transactionMetaSql(NOBODY), true));
    expect(none).toMatchObject({ items: "[]", transaction_count: 0, gross_in: "0", gross_out: "0", net: "0", categories: [] });
  });

  it("divides each category's spending by the spending's sum: zero, unpriced and failed groups out", async () => {
    const [meta] = await rows(transactionMetaSql(EDGE));
    expect(meta!.categories).toEqual([
      { category: "other", total_amount: "12.345", percentage_of_total: "61.73" },
      { category: "shopping", total_amount: "7.655", percentage_of_total: "38.28" },
    ]);
    expect(meta).toMatchObject({ transaction_count: 6, gross_in: "100", gross_out: "20", net: "80" });
  });
});
