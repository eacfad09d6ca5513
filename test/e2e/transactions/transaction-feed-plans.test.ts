import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../../lib/db/database.ts";
import { DEFAULT_DATABASE_TIMEOUTS } from "../../../lib/db/database-timeouts.ts";
import { applyMigrations, migrationSets } from "../../../lib/db/migrations.ts";
import type { Prisma } from "../../../subgraphs/finance/db.ts";
import { feedCountSql, feedPageSql, feedSql } from "../../../subgraphs/finance/transactions/list-transactions.ts";
import { transactionCondition, type TransactionFilterInput } from "../../../subgraphs/finance/transactions/transaction-filter.ts";
import { transactionMetaSql } from "../../../subgraphs/finance/transactions/transaction-meta.ts";
import { feedSeedStatements } from "../../support/feed-seed.ts";
import { freshDatabaseUrl, onPostgres } from "../../support/test-database.ts";

// Issue 9, performance: the feed's page, total and meta queries (the SQL the code runs, built by
// the same functions) read finance.transactions through its indexes, never a sequential scan, for
// a user with many rows among other users' rows. Plans are PostgreSQL's: PGlite skips this file.

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; Plans?: PlanNode[] };

let database: Database;

function nodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodes)];
}

async function plan(sql: Prisma.Sql): Promise<PlanNode[]> {
  const [row] = await database.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${sql.text}`, sql.values);
  return nodes(row!["QUERY PLAN"][0].Plan);
}

/** The transactions-table nodes of a plan: at least one, each through an index. */
function expectIndexed(planNodes: PlanNode[]): string[] {
  const onRelation = planNodes.filter((node) => node["Relation Name"] === "transactions");
  expect(onRelation.length).toBeGreaterThan(0);
  for (const node of onRelation) expect(node["Node Type"]).toMatch(/^(Index Scan|Index Only Scan|Bitmap Heap Scan)$/);
  return planNodes.filter((node) => node["Index Name"]).map((node) => node["Index Name"]!);
}

const readsTransactions = (planNodes: PlanNode[]) => planNodes.some((node) => node["Relation Name"] === "transactions");
const readsRollups = (planNodes: PlanNode[]) => planNodes.some((node) => node["Relation Name"] === "transaction_rollups");

describe.skipIf(!onPostgres)("transaction feed query plans (PostgreSQL)", () => {
  beforeAll(async () => {
    // each seed is one INSERT of tens of thousands of rows (a trigger and eight indexes each), longer
    // than a request's 5 s statement deadline on a busy machine
    database = await openDatabase({ databaseUrl: await freshDatabaseUrl(), dataDir: "memory://", timeouts: { ...DEFAULT_DATABASE_TIMEOUTS, statementMs: 120_000 } });
    await applyMigrations(database, migrationSets);
    for (const seed of [
      { user_id: "usr_plan_a", count: 30_000, wallet_ids: [1, 2], id_prefix: "plan_a" },
      { user_id: "usr_plan_b", count: 20_000, wallet_ids: [3], id_prefix: "plan_b" },
      { user_id: "usr_plan_c", count: 20_000, wallet_ids: [4], id_prefix: "plan_c" },
    ])
      for (const statement of feedSeedStatements(seed)) await database.exec(statement);
    await database.exec(`VACUUM ANALYZE "finance"."transactions"`);
    await database.exec(`VACUUM ANALYZE "finance"."transaction_rollups"`);
  });
  afterAll(async () => {
    await database?.close();
  });

  const filters: [string, TransactionFilterInput][] = [
    ["no filter", {}],
    ["category and period", { category: "groceries", period_start: new Date(Date.now() - 90 * 86_400_000) }],
    ["wallet and amount", { wallet_id: 2, amount_min: "10" }],
    ["type", { type: "card_purchase" }],
  ];

  for (const [name, filter] of filters) {
    const where = transactionCondition("usr_plan_a", filter);

    it(`pages on the (user_id, timestamp desc, id desc) index, stopping at the limit (${name})`, async () => {
      const planNodes = await plan(feedPageSql(where, 50, 100));
      expect(planNodes[0]!["Node Type"]).toBe("Limit");
      const indexes = expectIndexed(planNodes);
      if (name === "no filter") expect(indexes).toContain("transactions_user_id_timestamp_id_idx");
    });

    it(`counts and aggregates meta through indexes (${name})`, async () => {
      const count = await plan(feedCountSql("usr_plan_a", filter));
      const meta = await plan(transactionMetaSql("usr_plan_a", filter));
      if (name === "no filter") {
        // the whole-history totals (a few rows a user), not a row per month; the count reads no
        // transaction, the meta's date range one index entry at each end of the page's index
        for (const planNodes of [count, meta]) {
          expect(planNodes.some((node) => node["Relation Name"] === "transaction_totals")).toBe(true);
          expect(readsRollups(planNodes)).toBe(false);
        }
        expect(readsTransactions(count)).toBe(false);
        const rows = meta.filter((node) => node["Relation Name"] === "transactions");
        expect(rows.map((node) => [node["Node Type"], node["Index Name"]])).toEqual([
          ["Index Only Scan", "transactions_user_id_timestamp_id_idx"],
          ["Index Only Scan", "transactions_user_id_timestamp_id_idx"],
        ]);
      } else if (name === "category and period") {
        // the rollups for the whole months, the partial first month's rows through an index
        for (const planNodes of [count, meta]) {
          expect(readsRollups(planNodes)).toBe(true);
          expectIndexed(planNodes);
        }
      } else if (name === "type") {
        // the matching rows' index entries alone (transactions_feed_type_idx), not the table
        for (const planNodes of [count, meta]) expect(expectIndexed(planNodes)).toContain("transactions_feed_type_idx");
      } else {
        // a wallet or amount filter reads the rows, through an index
        for (const planNodes of [count, meta]) expectIndexed(planNodes);
      }
    });
  }

  it("reads the stored items of the page alone, not of the rows OFFSET skips, and no status history, in one statement", async () => {
    const sql = feedSql(transactionCondition("usr_plan_a"), 50, 5000, transactionMetaSql("usr_plan_a"));
    const [row] = await database.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.text}`, sql.values);
    const planNodes = nodes(row!["QUERY PLAN"][0].Plan) as (PlanNode & { "Actual Loops": number; "Actual Rows": number })[];
    // the items hold their histories (migration feed_item)
    expect(planNodes.filter((node) => node["Relation Name"] === "transaction_status_history")).toEqual([]);
    const byId = planNodes.filter((node) => node["Relation Name"] === "transactions" && node["Index Name"] === "transactions_pkey");
    expect(byId.length).toBeGreaterThan(0);
    for (const node of byId) expect(node["Actual Loops"]).toBeLessThanOrEqual(50);
  });

  it("reads the unfiltered first page's stored items with its rows from the feed index: no lookup by id", async () => {
    const sql = feedSql(transactionCondition("usr_plan_a"), 50, 0, transactionMetaSql("usr_plan_a"), true);
    const [row] = await database.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.text}`, sql.values);
    const planNodes = nodes(row!["QUERY PLAN"][0].Plan) as (PlanNode & { "Actual Loops": number; "Actual Rows": number })[];
    expect(planNodes.filter((node) => node["Index Name"] === "transactions_pkey" || node["Relation Name"] === "transaction_status_history")).toEqual([]);
    const page = planNodes.filter((node) => node["Node Type"] === "Index Scan" && node["Index Name"] === "transactions_user_id_timestamp_id_idx");
    expect(page).toHaveLength(1);
    expect(page[0]!["Actual Rows"]).toBe(50);
  });

  it("joins the page's items in the order the page's plan reads them: no sort, no ordered aggregate (issue 30)", async () => {
    for (const sql of [
      feedSql(transactionCondition("usr_plan_a"), 10, 0, feedCountSql("usr_plan_a"), true),
      feedSql(transactionCondition("usr_plan_a"), 50, 5000, transactionMetaSql("usr_plan_a")),
      feedSql(transactionCondition("usr_plan_a", { category: "groceries" }), 50, 0, transactionMetaSql("usr_plan_a", { category: "groceries" })),
    ]) {
      const [row] = await database.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(`EXPLAIN (VERBOSE, FORMAT JSON) ${sql.text}`, sql.values);
      const planNodes = nodes(row!["QUERY PLAN"][0].Plan) as (PlanNode & { Output?: string[]; "Sort Key"?: string[] })[];
      // (meta's groups are sorted by their keys)
      expect(planNodes.filter((node) => node["Node Type"] === "Sort" && node["Sort Key"]?.some((key) => key.includes("timestamp")))).toEqual([]);
      // of the items: PostgreSQL 15 sorts an aggregate's ORDER BY input on every execution, whatever order it comes in
      expect(planNodes.filter((node) => node["Node Type"] === "Aggregate" && node.Output?.some((output) => output.includes("feed_item") && output.includes("ORDER BY")))).toEqual([]);
      const [page] = await database.query<{ items: string }>(sql.text, sql.values);
      const items = JSON.parse(page!.items) as { id: string; timestamp: number }[];
      expect(items.length).toBeGreaterThan(0);
      // newest first, then by id
      for (let i = 1; i < items.length; i++) expect(items[i - 1]!.timestamp > items[i]!.timestamp || (items[i - 1]!.timestamp === items[i]!.timestamp && items[i - 1]!.id > items[i]!.id)).toBe(true);
    }
  });

  it("aggregates meta in SQL: one row, whatever the number of transactions", async () => {
    const sql = transactionMetaSql("usr_plan_a");
    const rows = await database.query<{ transaction_count: number; categories: unknown[] }>(sql.text, sql.values);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.transaction_count).toBe(30_000);
    expect(rows[0]!.categories.length).toBeLessThanOrEqual(9);
  });
});
