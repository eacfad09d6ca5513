import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from "../../../lib/contracts/transactions.ts";
import { validationError } from "../../../lib/errors/app-error.ts";
import { Prisma, type FinanceTx } from "../db.ts";
import { transactionCondition, type TransactionFilterInput } from "./transaction-filter.ts";
import { transactionRowView, type TransactionRow, type TransactionView } from "./transaction-view.ts";
import { filteredGroupsSql } from "./transaction-rollups.ts";

export interface PageInput {
  limit?: number | null;
  offset?: number | null;
}

export interface TransactionPageView {
  items: TransactionView[];
  pagination: { limit: number; offset: number; total: number };
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
 * The page query: newest first with the unique id as tiebreak, bounded by LIMIT/OFFSET, each row
 * with its status_history, in one round trip (the rows in the shape of transactionRowView).
 */
export function feedPageSql(where: Prisma.Sql, limit: number, offset: number): Prisma.Sql {
  return Prisma.sql`
    SELECT t."id", t."user_id", t."type", t."status", t."direction", trim_scale(t."amount")::text AS amount, t."asset_symbol", t."currency", t."decimals",
      trim_scale(t."amount_usd")::text AS amount_usd, t."category", t."description", t."merchant_name", t."merchant_mcc", t."wallet_id", t."card_id",
      t."bank_account_id", t."counterparty", t."chain_id", t."tx_hash", t."note", t."timestamp", t."created_at", t."updated_at",
      (SELECT coalesce(json_agg(json_build_object('from', h."from", 'to', h."to", 'changed_at', h."changed_at") ORDER BY h."id"), '[]')
       FROM "finance"."transaction_status_history" h WHERE h."transaction_id" = t."id") AS status_history
    FROM "finance"."transactions" t WHERE ${where} ORDER BY t."timestamp" DESC, t."id" DESC LIMIT ${limit} OFFSET ${offset}`;
}

/** pagination.total: counted in SQL over the same filters, from the rollups where they can answer. */
export function feedCountSql(userId: string, filter: TransactionFilterInput = {}): Prisma.Sql {
  return Prisma.sql`SELECT coalesce(sum(n), 0)::int AS total FROM (${filteredGroupsSql(userId, filter)}) parts`;
}

/**
 * One page of the user's feed: newest first by `timestamp`, then by id (unique), so walking the
 * pages while nothing changes yields every row once; on the (user_id, timestamp desc, id desc)
 * index, rows and histories in one query.
 */
export async function listTransactions(
  tx: FinanceTx,
  options: { user_id: string; filter?: TransactionFilterInput | null; page?: PageInput | null; total?: Promise<number> },
): Promise<TransactionPageView> {
  const { limit, offset } = pageBounds(options.page);
  const where = transactionCondition(options.user_id, options.filter ?? {});
  // `total`: a count of the same condition already under way (the meta's transaction_count)
  const total = options.total ?? tx.$queryRaw<{ total: number }[]>(feedCountSql(options.user_id, options.filter ?? {})).then(([count]) => count!.total);
  const [rows, counted] = await Promise.all([tx.$queryRaw<TransactionRow[]>(feedPageSql(where, limit, offset)), total]);
  return { items: rows.map(transactionRowView), pagination: { limit, offset, total: counted } };
}
