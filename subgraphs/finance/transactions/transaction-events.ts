import type { EventPayload } from "../../../lib/contracts/events.ts";
import type { TransactionView } from "./transaction-view.ts";

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
