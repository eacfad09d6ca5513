import { appError } from "../../../lib/errors/app-error.ts";
import type { TransactionStatus } from "../../../lib/vocabulary/transactions.ts";

/** Spec 3.4, the only place that knows it: a movement starts `pending` and ends `completed` or `failed`. */
export const INITIAL_TRANSACTION_STATUS: TransactionStatus = "pending";

const MOVES: Record<TransactionStatus, readonly TransactionStatus[]> = {
  pending: ["processing"],
  processing: ["completed", "failed"],
  completed: [],
  failed: [],
};

export function canMoveTransaction(from: TransactionStatus, to: TransactionStatus): boolean {
  return MOVES[from].includes(to);
}

/** Refuses a move spec 3.4 does not have, with TXN-409-001 naming the current status. */
export function requireTransactionMove(from: TransactionStatus, to: TransactionStatus): void {
  if (!canMoveTransaction(from, to)) {
    const allowed = MOVES[from];
    throw appError(
      "TXN-409-001",
      `The transaction is ${from}; it cannot move to ${to}` + (allowed.length ? ` (only to ${allowed.join(" or ")}).` : ` (${from} is final).`),
    );
  }
}

/**
 * The statuses after `from` a transaction walks through to arrive at `to`, each a legal move; null
 * when spec 3.4 has no way there (from a final status, or back). A bank transaction the provider
 * reports posted goes pending → processing → completed, every step in its status_history.
 */
export function pathBetween(from: TransactionStatus, to: TransactionStatus): TransactionStatus[] | null {
  const path: TransactionStatus[] = [];
  let at = from;
  while (at !== to) {
    const next = MOVES[at].find((status) => status === to) ?? MOVES[at].find((status) => MOVES[status].length > 0);
    if (next === undefined) return null;
    path.push(next);
    at = next;
  }
  return path;
}

/**
 * The statuses a new movement walks through to arrive at `target` (pending first): a movement
 * that is already settled when recorded (a sandbox deposit, an imported on-chain transfer) still
 * goes pending → processing → completed, every step in its status_history.
 */
export function pathFromInitial(target: TransactionStatus): TransactionStatus[] {
  const path = pathBetween(INITIAL_TRANSACTION_STATUS, target);
  if (path === null) throw new Error(`no path from ${INITIAL_TRANSACTION_STATUS} to ${target}`);
  return [INITIAL_TRANSACTION_STATUS, ...path];
}
