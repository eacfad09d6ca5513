import type { EventPayload } from "../../../lib/contracts/events.ts";
import type { CardStatus } from "../../../lib/vocabulary/cards.ts";
import type { FinanceTx } from "../db.ts";
import type { CardAuthorization as AuthorizationRow, Card as CardRow } from "../generated/prisma/client.ts";
import { emitEvent } from "../outbox/outgoing-events.ts";

/** A card as its outgoing events carry it (lib/contracts/events.ts): never its number, CVV or expiry. */
function cardEventData(row: CardRow): EventPayload<"card.created"> {
  return {
    id: row.id,
    user_id: row.user_id,
    type: row.type,
    status: row.status,
    nickname: row.nickname,
    currency: row.currency,
    last_four: row.last_four,
    funding_source: { type: row.funding_source_type, id: row.funding_source_id },
    created_at: row.created_at.getTime(),
    updated_at: row.updated_at.getTime(),
  };
}

/** Writes card.created for a card just issued, in its database transaction. */
export async function emitCardCreated(tx: FinanceTx, row: CardRow): Promise<void> {
  await emitEvent(tx, { type: "card.created", user_id: row.user_id, resource: { type: "card", id: row.id }, data: cardEventData(row) });
}

/** Writes card.status_changed for a card that moved from `previous_status`, in the move's database transaction. */
export async function emitCardStatusChanged(tx: FinanceTx, row: CardRow, previous_status: CardStatus): Promise<void> {
  await emitEvent(tx, { type: "card.status_changed", user_id: row.user_id, resource: { type: "card", id: row.id }, data: { ...cardEventData(row), previous_status } });
}

/** Writes card.authorization_approved or card.authorization_declined for an authorization just decided, in its database transaction. */
export async function emitCardAuthorization(tx: FinanceTx, row: AuthorizationRow): Promise<void> {
  const common = {
    id: row.id,
    card_id: row.card_id,
    user_id: row.user_id,
    amount: row.amount.toFixed(),
    currency: row.currency,
    merchant: { name: row.merchant_name, mcc: row.merchant_mcc },
    created_at: row.created_at.getTime(),
  };
  const resource = { type: "card_authorization", id: row.id };
  if (row.decision === "approved")
    await emitEvent(tx, { type: "card.authorization_approved", user_id: row.user_id, resource, data: { ...common, decision: "approved", status: "pending", transaction_id: row.transaction_id! } });
  else await emitEvent(tx, { type: "card.authorization_declined", user_id: row.user_id, resource, data: { ...common, decision: "declined", status: "declined", decline_reason: row.decline_reason! } });
}
