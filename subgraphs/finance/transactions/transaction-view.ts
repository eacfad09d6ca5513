import { appError } from "../../../lib/errors/app-error.ts";
import type { TransactionDirection, TransactionStatus, TransactionType } from "../../../lib/vocabulary/transactions.ts";
import type { FinanceTx } from "../db.ts";

/** A status change as the API shows it (status_history). */
export interface TransactionStatusChangeView {
  from: TransactionStatus | null;
  to: TransactionStatus;
  changed_at: Date;
}

/** A ledger row as the API shows it: amounts as decimal strings, never numbers. */
export interface TransactionView {
  id: string;
  type: TransactionType;
  status: TransactionStatus;
  direction: TransactionDirection;
  amount: string;
  asset: { symbol: string; decimals: number } | null;
  currency: string | null;
  amount_usd: string | null;
  category: string | null;
  description: string | null;
  merchant: { name: string | null; mcc: string | null } | null;
  wallet_id: number | null;
  card_id: string | null;
  bank_account_id: string | null;
  counterparty: string | null;
  chain_id: number | null;
  tx_hash: string | null;
  note: string | null;
  timestamp: Date;
  created_at: Date;
  updated_at: Date;
  status_history: TransactionStatusChangeView[];
}

const WITH_HISTORY = { status_history: { orderBy: { id: "asc" } } } as const;

type Row = NonNullable<Awaited<ReturnType<FinanceTx["transaction"]["findUnique"]>>> & {
  status_history: { from: string | null; to: string; changed_at: Date }[];
};

/** A ledger row with its decimals as text (trailing zeros trimmed) and its history: what a view is made of. */
type Fields = Omit<Row, "amount" | "amount_usd" | "status_history"> & {
  amount: string;
  amount_usd: string | null;
  status_history: { from: string | null; to: string; changed_at: Date }[];
};

function viewOf(row: Fields): TransactionView {
  return {
    id: row.id,
    type: row.type as TransactionType,
    status: row.status as TransactionStatus,
    direction: row.direction as TransactionDirection,
    amount: row.amount,
    asset: row.asset_symbol === null ? null : { symbol: row.asset_symbol, decimals: row.decimals },
    currency: row.currency,
    amount_usd: row.amount_usd,
    category: row.category,
    description: row.description,
    merchant: row.merchant_name === null && row.merchant_mcc === null ? null : { name: row.merchant_name, mcc: row.merchant_mcc },
    wallet_id: row.wallet_id,
    card_id: row.card_id,
    bank_account_id: row.bank_account_id,
    counterparty: row.counterparty,
    chain_id: row.chain_id,
    tx_hash: row.tx_hash,
    note: row.note,
    timestamp: row.timestamp,
    created_at: row.created_at,
    updated_at: row.updated_at,
    status_history: row.status_history.map((change) => ({ from: change.from as TransactionStatus | null, to: change.to as TransactionStatus, changed_at: change.changed_at })),
  };
}

/** The view of a Prisma row. */
export function transactionView(row: Row): TransactionView {
  // toFixed(): plain notation whatever the exponent, trailing zeros dropped
  return viewOf({ ...row, amount: row.amount.toFixed(), amount_usd: row.amount_usd === null ? null : row.amount_usd.toFixed() });
}

/** Transactions by id with their histories, in the order of `ids` (one query for a page). */
export async function loadTransactions(tx: FinanceTx, ids: string[]): Promise<TransactionView[]> {
  const rows = await tx.transaction.findMany({ where: { id: { in: ids } }, include: WITH_HISTORY });
  const byId = new Map(rows.map((row) => [row.id, transactionView(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One transaction with its history, or null. */
export async function loadTransaction(tx: FinanceTx, id: string): Promise<TransactionView | null> {
  const row = await tx.transaction.findUnique({ where: { id }, include: WITH_HISTORY });
  return row && transactionView(row);
}

/** The user's transaction, or TXN-404-001: other users' transactions do not exist. */
/** `walletIds`: only a transaction of these wallets (an agent token restricted to them) is found. */
export async function findOwnTransaction(tx: FinanceTx, userId: string, id: string, walletIds: readonly number[] | null = null): Promise<TransactionView> {
  const row = await tx.transaction.findFirst({ where: { id, user_id: userId, ...(walletIds && { wallet_id: { in: [...walletIds] } }) }, include: WITH_HISTORY });
  if (!row) throw appError("TXN-404-001", `Transaction ${id} was not found for this user.`);
  return transactionView(row);
}
