import { appError } from "../../../lib/errors/app-error.ts";
import type { CardAuthorizationDecision, CardAuthorizationStatus, CardDeclineReason } from "../../../lib/vocabulary/cards.ts";
import type { FinanceDb, FinanceTx } from "../db.ts";
import type { CardAuthorization as AuthorizationRow } from "../generated/prisma/client.ts";
import { pageBounds, type PageInput } from "../transactions/list-transactions.ts";
import { loadTransactions, type TransactionView } from "../transactions/transaction-view.ts";
import { findOwnCardRow } from "./card-view.ts";

/** An authorization as the API shows it: what was asked, what was decided, and its movements in the ledger. */
export interface CardAuthorizationView {
  id: string;
  card_id: string;
  decision: CardAuthorizationDecision;
  decline_reason: CardDeclineReason | null;
  status: CardAuthorizationStatus;
  amount: string;
  currency: string;
  merchant: { name: string; mcc: string };
  /** the `card_purchase` an approval booked; null when declined */
  transaction: TransactionView | null;
  /** the sum of its refunds, in its currency ("0" before any) */
  refunded_amount: string;
  /** the `card_refund` movements, oldest first */
  refunds: TransactionView[];
  created_at: Date;
  updated_at: Date;
}

export interface CardAuthorizationPageView {
  items: CardAuthorizationView[];
  pagination: { limit: number; offset: number; total: number };
}

function viewOf(row: AuthorizationRow, transactions: Map<string, TransactionView>): CardAuthorizationView {
  return {
    id: row.id,
    card_id: row.card_id,
    decision: row.decision as CardAuthorizationDecision,
    decline_reason: row.decline_reason as CardDeclineReason | null,
    status: row.status as CardAuthorizationStatus,
    amount: row.amount.toFixed(),
    currency: row.currency,
    merchant: { name: row.merchant_name, mcc: row.merchant_mcc },
    transaction: (row.transaction_id !== null && transactions.get(row.transaction_id)) || null,
    refunded_amount: row.refunded_amount.toFixed(),
    refunds: row.refund_transaction_ids.flatMap((id) => transactions.get(id) ?? []),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Views of `rows` with their movements, loaded in one query. */
async function authorizationViews(tx: FinanceTx, rows: AuthorizationRow[]): Promise<CardAuthorizationView[]> {
  const ids = rows.flatMap((row) => [...(row.transaction_id ? [row.transaction_id] : []), ...row.refund_transaction_ids]);
  const transactions = new Map((ids.length ? await loadTransactions(tx, ids) : []).map((view) => [view.id, view]));
  return rows.map((row) => viewOf(row, transactions));
}

export async function authorizationView(tx: FinanceTx, row: AuthorizationRow): Promise<CardAuthorizationView> {
  return (await authorizationViews(tx, [row]))[0]!;
}

/** The user's authorization row, or CRD-404-002: other users' authorizations do not exist. */
export async function findOwnAuthorizationRow(tx: FinanceTx, userId: string, id: string): Promise<AuthorizationRow> {
  const row = await tx.cardAuthorization.findFirst({ where: { id, user_id: userId } });
  if (!row) throw appError("CRD-404-002", `Card authorization ${id} was not found for this user.`);
  return row;
}

/** One of the user's cards' authorizations (closed cards too; another user's card: CRD-404-001), declined ones included, newest first. */
export async function listCardAuthorizations(db: FinanceDb, options: { user_id: string; card_id: string; page?: PageInput | null }): Promise<CardAuthorizationPageView> {
  const { limit, offset } = pageBounds(options.page);
  const card = await findOwnCardRow(db, options.user_id, options.card_id);
  const where = { card_id: card.id, user_id: options.user_id };
  const [rows, total] = await Promise.all([db.cardAuthorization.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: limit, skip: offset }), db.cardAuthorization.count({ where })]);
  return { items: await authorizationViews(db, rows), pagination: { limit, offset, total } };
}
