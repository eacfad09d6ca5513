import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "../../../lib/contracts/transactions.ts";
import { queryRows } from "../../../lib/db/direct-query.ts";
import { PREPARED } from "../../../lib/db/prepared-statements.ts";
import { validationError } from "../../../lib/errors/app-error.ts";
import { Prisma, type FinanceTx } from "../db.ts";
import { isUnfiltered, transactionCondition, type TransactionFilterInput } from "./transaction-filter.ts";
import type { TransactionStatusChangeView, TransactionView } from "./transaction-view.ts";
import { metaView, transactionMetaSql, type MetaRow, type TransactionMetaView } from "./transaction-meta.ts";
import { filteredGroupsSql } from "./transaction-rollups.ts";

export interface PageInput {
  limit?: number | null;
  offset?: number | null;
}

/**
 * A feed item as stored and as the page's text holds it: a TransactionView with its instants as epoch ms, which
 * the Timestamp scalar answers as they are (no Date made and read back per instant).
 */
export type FeedItemView = Omit<TransactionView, "timestamp" | "created_at" | "updated_at" | "status_history"> & {
  timestamp: number;
  created_at: number;
  updated_at: number;
  status_history: (Omit<TransactionStatusChangeView, "changed_at"> & { changed_at: number })[];
};

export interface FeedPagination {
  limit: number;
  offset: number;
  total: number;
}

/** The page asked for, within bounds (GEN-422-001 at limit or offset otherwise). */
export function pageBounds(input: PageInput | null | undefined): { limit: number; offset: number } {
  const limit = input?.limit ?? DEFAULT_PAGE_LIMIT;
  const offset = input?.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw validationError(["limit"], `Input should be between 1 and ${MAX_PAGE_LIMIT}`, limit, "less_than_equal", { le: MAX_PAGE_LIMIT });
  if (!Number.isInteger(offset) || offset < 0) throw validationError(["offset"], "Input should be greater than or equal to 0", offset, "greater_than_equal", { ge: 0 });
  return { limit, offset };
}

/**
 * The page's rows: newest first with the unique id as tiebreak, bounded by LIMIT/OFFSET, only the
 * keys (an index-only scan where the filters allow); feedSql reads the stored items of these
 * alone, not of every row OFFSET skips. LIMIT and OFFSET are literals (integers that pageBounds
 * checked): PostgreSQL plans a parameter there for a tenth of the user's rows, and the
 * first page's prepared statement then keeps a custom plan, planned at every execution.
 */
export function feedPageSql(where: Prisma.Sql, limit: number, offset: number): Prisma.Sql {
  return Prisma.sql`SELECT "id", "timestamp" FROM "finance"."transactions" WHERE ${where} ORDER BY "timestamp" DESC, "id" DESC LIMIT ${Prisma.raw(String(limit))} OFFSET ${Prisma.raw(String(offset))}`;
}

/** pagination.total: counted in SQL over the same filters, from the rollups where they can answer. */
export function feedCountSql(userId: string, filter: TransactionFilterInput = {}): Prisma.Sql {
  return Prisma.sql`SELECT coalesce(sum(n), 0)::int AS total FROM (${filteredGroupsSql(userId, filter)}) parts`;
}

/**
 * The page's stored items (`item`: a row's of `page`, whose rows come in page order) as the text
 * of one JSON array, in page order, as JSON.stringify writes it (the items are stored so:
 * migration feed_item_wire_form): text, not json, so the driver hands it over unparsed (a REST
 * answer writes it as it is). An array of the rows' texts joined, not string_agg(... ORDER BY):
 * PostgreSQL 15 sorts an aggregate's ordered input on every execution, rows already in order too
 * (a tenth of the three-subgraph query's finance statement); the ORDER BY here is the page's own,
 * which the plan reads in order.
 */
const ITEMS_TEXT = (item: Prisma.Sql, page: Prisma.Sql) =>
  Prisma.sql`'[' || array_to_string(ARRAY(SELECT coalesce(${item}::text, 'null') FROM (${page}) page ORDER BY page."timestamp" DESC, page."id" DESC), ',') || ']'`;

/**
 * The page (`items`: the rows' stored feed items, one JSON array's text, timestamps as epoch ms) beside
 * `counts`, a one-row statement over the same filters (the total, or the meta with its count):
 * the whole answer in one statement. Each row's item, its status history included, is kept by
 * triggers (migration feed_item), so the page copies 50 stored values instead of building them.
 * `userOnly`: `where` is the user's alone, so the feed index yields the page's rows in order and
 * the items are read with them (OFFSET 0: no row read for nothing).
 */
export function feedSql(where: Prisma.Sql, limit: number, offset: number, counts: Prisma.Sql, userOnly = false): Prisma.Sql {
  if (userOnly && offset === 0)
    return Prisma.sql`
    SELECT counts.*, ${ITEMS_TEXT(Prisma.sql`page."feed_item"`, Prisma.sql`SELECT "id", "timestamp", "feed_item" FROM "finance"."transactions" WHERE ${where} ORDER BY "timestamp" DESC, "id" DESC LIMIT ${Prisma.raw(String(limit))}`)} AS items
    FROM (${counts}) counts`;
  // otherwise each page row's item is a subquery on the primary key, not a join: a join's plan
  // depends on the page's size, which a prepared statement's generic plan does not know (it
  // guesses 10 % of the user's rows and hash-joins the whole table)
  return Prisma.sql`
    SELECT counts.*, ${ITEMS_TEXT(Prisma.sql`(SELECT t."feed_item" FROM "finance"."transactions" t WHERE t."id" = page."id")`, feedPageSql(where, limit, offset))} AS items
    FROM (${counts}) counts`;
}

/**
 * One page of the user's feed: newest first by `timestamp`, then by id (unique), so walking the
 * pages while nothing changes yields every row once; on the (user_id, timestamp desc, id desc)
 * index. With `meta`, the filtered set's meta too, whose count is the total; the page, its
 * histories and the total or meta in one statement, run on the database directly (queryRows: a
 * page is one row with a large column, which Prisma's runtime is slow to hand over). The items
 * come as the text of their JSON array (`items_text`), as JSON.stringify writes it.
 */
export async function listTransactionsText(
  tx: FinanceTx,
  options: { user_id: string; filter?: TransactionFilterInput | null; page?: PageInput | null; meta?: boolean },
): Promise<{ items_text: string; pagination: FeedPagination; meta?: TransactionMetaView }> {
  const { limit, offset } = pageBounds(options.page);
  const filter = options.filter ?? {};
  // the unfiltered first page (a dashboard's every visit) is a prepared statement, one text per
  // limit: parsed once per connection and run on a generic plan, not planned each time
  const firstUnfiltered = offset === 0 && isUnfiltered(filter);
  if (options.meta) {
    const sql = firstUnfiltered ? firstPageSql(options.user_id, limit, true) : feedSql(transactionCondition(options.user_id, filter), limit, offset, transactionMetaSql(options.user_id, filter));
    const [row] = await queryRows<MetaRow & { items: string }>(tx, sql);
    const meta = metaView(row!);
    return { items_text: row!.items, pagination: { limit, offset, total: meta.transaction_count }, meta };
  }
  const sql = firstUnfiltered ? firstPageSql(options.user_id, limit, false) : feedSql(transactionCondition(options.user_id, filter), limit, offset, feedCountSql(options.user_id, filter));
  const [row] = await queryRows<{ total: number; items: string }>(tx, sql);
  return { items_text: row!.items, pagination: { limit, offset, total: row!.total } };
}

/** The unfiltered first page's prepared statement, with meta or with the total, as listTransactionsText composes it. */
export function firstPageStatement(userId: string, limit: number, meta: boolean): Prisma.Sql {
  const counts = meta ? transactionMetaSql(userId) : feedCountSql(userId);
  return Prisma.sql`${Prisma.raw(PREPARED)}${feedSql(transactionCondition(userId), limit, 0, counts, true)}`;
}

/** firstPageStatement's text around its values, by limit and meta; null where a value is not the user's id. */
const firstPageTexts = new Map<string, readonly string[] | null>();
const SAMPLE_USER = "\u0000sample user";

/**
 * firstPageStatement, whose values are all the user's id: its pieces are kept, and each request
 * puts its user's id between them instead of composing the dozen nested Prisma.sql pieces again
 * (2 us against 0.2 us per request in a micro benchmark). At most two per page limit.
 */
export function firstPageSql(userId: string, limit: number, meta: boolean): Prisma.Sql {
  const key = `${limit}:${meta}`;
  let strings = firstPageTexts.get(key);
  if (strings === undefined) {
    const sample = firstPageStatement(SAMPLE_USER, limit, meta);
    strings = sample.values.every((value) => value === SAMPLE_USER) ? sample.strings : null;
    firstPageTexts.set(key, strings);
  }
  return strings ? new Prisma.Sql(strings, new Array<string>(strings.length - 1).fill(userId)) : firstPageStatement(userId, limit, meta);
}
