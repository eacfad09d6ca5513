import { validationError } from "../../../lib/errors/app-error.ts";
import { Prisma, type FinanceTx } from "../db.ts";
import { transactionCondition, type TransactionFilterInput } from "./transaction-filter.ts";
import { loadTransactions, type TransactionView } from "./transaction-record.ts";

/** Page size of the feed when the client gives none, and the most it may ask for (spec 8 leaves both to us). */
export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 200;

export interface PageInput {
  limit?: number | null;
  offset?: number | null;
}

export interface TransactionPageView {
  items: TransactionView[];
  pagination: { limit: number; offset: number; total: number };
}

/** The page asked for, within bounds (GEN-422-001 at query.limit or query.offset otherwise). */
export function pageBounds(input: PageInput | null | undefined): { limit: number; offset: number } {
  const limit = input?.limit ?? DEFAULT_PAGE_LIMIT;
  const offset = input?.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw validationError(["query", "limit"], `Input should be between 1 and ${MAX_PAGE_LIMIT}`, limit, "less_than_equal", { le: MAX_PAGE_LIMIT });
  if (!Number.isInteger(offset) || offset < 0) throw validationError(["query", "offset"], "Input should be greater than or equal to 0", offset, "greater_than_equal", { ge: 0 });
  return { limit, offset };
}

/** The page query: ids only, newest first with the unique id as tiebreak, bounded by LIMIT/OFFSET. */
export function feedPageSql(where: Prisma.Sql, limit: number, offset: number): Prisma.Sql {
  return Prisma.sql`SELECT "id" FROM "finance"."transactions" WHERE ${where} ORDER BY "timestamp" DESC, "id" DESC LIMIT ${limit} OFFSET ${offset}`;
}

/** pagination.total: counted in SQL over the same condition. */
export function feedCountSql(where: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`SELECT count(*)::int AS total FROM "finance"."transactions" WHERE ${where}`;
}

/**
 * One page of the user's feed: newest first by `timestamp`, then by id (unique), so walking the
 * pages while nothing changes yields every row once; on the (user_id, timestamp desc, id desc)
 * index. Only ids are paged in SQL; the page's rows and histories are loaded by id.
 */
export async function listTransactions(
  tx: FinanceTx,
  options: { user_id: string; filter?: TransactionFilterInput | null; page?: PageInput | null; total?: Promise<number> },
): Promise<TransactionPageView> {
  const { limit, offset } = pageBounds(options.page);
  const where = transactionCondition(options.user_id, options.filter ?? {});
  // `total`: a count of the same condition already under way (the meta's transaction_count)
  const total = options.total ?? tx.$queryRaw<{ total: number }[]>(feedCountSql(where)).then(([count]) => count!.total);
  const rows = await tx.$queryRaw<{ id: string }[]>(feedPageSql(where, limit, offset));
  const [items, counted] = await Promise.all([loadTransactions(tx, rows.map((row) => row.id)), total]);
  return { items, pagination: { limit, offset, total: counted } };
}
