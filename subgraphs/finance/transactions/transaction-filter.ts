import { validationError } from "../../../lib/errors/app-error.ts";
import type { SpendingCategory, TransactionDirection, TransactionStatus, TransactionType } from "../../../lib/vocabulary/transactions.ts";
import { Prisma } from "../db.ts";

/** The feed's filters as a client sends them (spec 4.3); every one optional, all combined with AND. */
export interface TransactionFilterInput {
  type?: TransactionType | null;
  status?: TransactionStatus | null;
  direction?: TransactionDirection | null;
  wallet_id?: number | null;
  card_id?: string | null;
  bank_account_id?: string | null;
  /** inclusive */
  period_start?: Date | null;
  /** exclusive */
  period_end?: Date | null;
  /** decimal strings in asset units, compared with `amount` exactly (NUMERIC, never a float) */
  amount_min?: string | null;
  amount_max?: string | null;
  category?: SpendingCategory | null;
  /** not a client's filter: the wallets an agent token is restricted to (`AuthenticatedUser.wallet_ids`) */
  wallet_ids?: readonly number[] | null;
}

/** Whether `filter` narrows nothing: the whole of the user's feed. */
export function isUnfiltered(filter: TransactionFilterInput): boolean {
  for (const key in filter) if (filter[key as keyof TransactionFilterInput] != null) return false;
  return true;
}

/** A decimal bound: digits with an optional fraction, normalised only by the database's NUMERIC. */
function decimalBound(value: string | null | undefined, name: string): string | null {
  if (value == null) return null;
  if (!/^\d{1,60}(\.\d{1,18})?$/.test(value))
    throw validationError([name], "Input should be a non-negative decimal such as \"12.50\" (at most 18 decimals)", value, "decimal_parsing");
  return value;
}

function instant(value: Date | null | undefined, name: string): Date | null {
  if (value == null) return null;
  if (Number.isNaN(value.getTime())) throw validationError([name], "Input should be epoch milliseconds or an ISO 8601 instant", value, "datetime_parsing");
  return value;
}

/**
 * The SQL condition selecting `userId`'s transactions that pass `filter` (parameters only, never
 * interpolated text): one condition for the page, its total and its meta, so they always agree.
 * Bad instants and decimal bounds are GEN-422-001 items at `<name>`.
 */
export function transactionCondition(userId: string, filter: TransactionFilterInput = {}): Prisma.Sql {
  const conditions = [Prisma.sql`"user_id" = ${userId}`];
  const equal = (column: string, value: string | number | null) => {
    if (value !== null) conditions.push(Prisma.sql`${Prisma.raw(`"${column}"`)} = ${value}`);
  };
  equal("type", filter.type ?? null);
  equal("status", filter.status ?? null);
  equal("direction", filter.direction ?? null);
  equal("category", filter.category ?? null);
  equal("wallet_id", filter.wallet_id ?? null);
  equal("card_id", filter.card_id ?? null);
  equal("bank_account_id", filter.bank_account_id ?? null);
  if (filter.wallet_ids) conditions.push(Prisma.sql`"wallet_id" = ANY(${[...filter.wallet_ids]}::int[])`);
  const start = instant(filter.period_start, "period_start");
  const end = instant(filter.period_end, "period_end");
  if (start) conditions.push(Prisma.sql`"timestamp" >= ${start}::timestamptz`);
  if (end) conditions.push(Prisma.sql`"timestamp" < ${end}::timestamptz`);
  const min = decimalBound(filter.amount_min, "amount_min");
  const max = decimalBound(filter.amount_max, "amount_max");
  if (min !== null) conditions.push(Prisma.sql`"amount" >= ${min}::numeric`);
  if (max !== null) conditions.push(Prisma.sql`"amount" <= ${max}::numeric`);
  return Prisma.join(conditions, " AND ");
}
