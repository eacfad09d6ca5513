import { appError } from "../../../lib/errors/app-error.ts";
import { TRANSACTION_STATUSES, type TransactionStatus } from "../../../lib/vocabulary/transactions.ts";
import { requireOneOf } from "../../../lib/vocabulary/values.ts";
import type { FinanceTx } from "../db.ts";
import { findOwnTransaction, type TransactionView } from "./transaction-view.ts";
import { pathBetween, requireTransactionMove } from "./transaction-status.ts";
import { publishChange } from "../changes/change-events.ts";
import { emitTransactionStatusChanged } from "./transaction-events.ts";

/**
 * Moves the user's transaction to `to` (spec 3.4; anything else TXN-409-001 naming its status) and
 * appends the change to its status_history and its transaction.status_changed event, in the
 * caller's database transaction. The update matches only
 * while the status is still the one read, so of two concurrent moves from one status one applies
 * and the other is refused with the status it then finds.
 */
export async function moveTransactionStatus(tx: FinanceTx, options: { user_id: string; transaction_id: string; to: TransactionStatus }): Promise<TransactionView> {
  const to = requireOneOf(TRANSACTION_STATUSES, options.to, ["status"]);
  const current = await findOwnTransaction(tx, options.user_id, options.transaction_id);
  requireTransactionMove(current.status, to);
  const now = new Date();
  const { count } = await tx.transaction.updateMany({ where: { id: current.id, status: current.status }, data: { status: to, updated_at: now } });
  if (count === 0) {
    const latest = await findOwnTransaction(tx, options.user_id, options.transaction_id);
    requireTransactionMove(latest.status, to);
    throw appError("TXN-409-001", `The transaction changed while moving it; it is ${latest.status}.`);
  }
  await tx.transactionStatusChange.create({ data: { transaction_id: current.id, from: current.status, to, changed_at: now } });
  await publishChange(tx, options.user_id, now);
  return emitTransactionStatusChanged(tx, { id: current.id, user_id: options.user_id }, current.status);
}

/**
 * Walks a transaction from `from` to `to` as a provider reported it (a bank posting, a ramp's
 * outcome), every legal step of spec 3.4 in its status_history and one transaction.status_changed
 * event from `from` to `to`, in the caller's database transaction. False, with nothing written, when spec 3.4 has no way there or the status is no
 * longer `from`: the caller records the report as ignored, never applies it.
 */
export async function walkTransactionStatus(tx: FinanceTx, row: { id: string; user_id: string; status: TransactionStatus }, to: TransactionStatus, now = new Date()): Promise<boolean> {
  const path = pathBetween(row.status, to);
  if (path === null || path.length === 0) return false;
  const { count } = await tx.transaction.updateMany({ where: { id: row.id, status: row.status }, data: { status: to, updated_at: now } });
  if (count === 0) return false;
  await tx.transactionStatusChange.createMany({ data: path.map((step, i) => ({ transaction_id: row.id, from: i === 0 ? row.status : path[i - 1]!, to: step, changed_at: now })) });
  await publishChange(tx, row.user_id, now);
  await emitTransactionStatusChanged(tx, row, row.status);
  return true;
}
