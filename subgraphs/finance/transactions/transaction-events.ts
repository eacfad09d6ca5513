import type { EventPayload } from "../../../lib/contracts/events.ts";
import type { TransactionStatus } from "../../../lib/vocabulary/transactions.ts";
import type { FinanceTx } from "../db.ts";
import { emitEvent } from "../outbox/outgoing-events.ts";
import { loadTransaction, type TransactionView } from "./transaction-view.ts";

/** A transaction as its outgoing events carry it (lib/contracts/events.ts): the REST rendering's fields, instants in epoch ms. */
export function transactionEventData(user_id: string, view: TransactionView): EventPayload<"transaction.created"> {
  return {
    id: view.id,
    user_id,
    type: view.type,
    status: view.status,
    direction: view.direction,
    amount: view.amount,
    asset: view.asset,
    currency: view.currency,
    amount_usd: view.amount_usd,
    category: view.category,
    merchant: view.merchant,
    wallet_id: view.wallet_id,
    card_id: view.card_id,
    bank_account_id: view.bank_account_id,
    counterparty: view.counterparty,
    chain_id: view.chain_id,
    tx_hash: view.tx_hash,
    timestamp: view.timestamp.getTime(),
    created_at: view.created_at.getTime(),
  };
}

/** Writes transaction.status_changed for a move from `previous_status` to the status the transaction now has, in the move's database transaction; answers the view. */
export async function emitTransactionStatusChanged(tx: FinanceTx, transaction: { id: string; user_id: string }, previous_status: TransactionStatus): Promise<TransactionView> {
  const view = (await loadTransaction(tx, transaction.id))!;
  await emitEvent(tx, {
    type: "transaction.status_changed",
    user_id: transaction.user_id,
    resource: { type: "transaction", id: view.id },
    data: { ...transactionEventData(transaction.user_id, view), previous_status },
  });
  return view;
}
