import { appError } from "../../../lib/errors/app-error.ts";
import type { CardStatus } from "../../../lib/vocabulary/cards.ts";
import type { FinanceTx } from "../db.ts";
import { requireIssuer, type CardIssuer } from "./card-issuer.ts";
import { cardView, findOwnCardRow, type CardView } from "./card-view.ts";
import { requireCardAction, type CardAction } from "./card-status.ts";
import { emitCardStatusChanged } from "./card-events.ts";

type CardRow = Awaited<ReturnType<typeof findOwnCardRow>>;

/**
 * Performs the holder's `action` on their card (a spec 3.3 move from the statuses it allows;
 * anything else CRD-409-001 naming the status), tells the issuer first so the network agrees,
 * and appends the change to status_history with its card.status_changed event. The update matches only while the status is still
 * the one read: of two concurrent actions one applies and the other is refused.
 */
export async function performCardAction(tx: FinanceTx, issuer: CardIssuer | undefined, options: { user_id: string; card_id: string; action: CardAction; check?: (card: CardRow) => void }): Promise<CardView> {
  const current = await findOwnCardRow(tx, options.user_id, options.card_id);
  const to = requireCardAction(current.status as CardStatus, options.action);
  options.check?.(current);
  await requireIssuer(issuer, current.issuer).setStatus(current.issuer_card_id, to === "pending" ? "active" : to);
  const now = new Date();
  const { count } = await tx.card.updateMany({ where: { id: current.id, status: current.status }, data: { status: to, updated_at: now } });
  if (count === 0) {
    const latest = await findOwnCardRow(tx, options.user_id, options.card_id);
    requireCardAction(latest.status as CardStatus, options.action);
    throw appError("CRD-409-001", `The card changed meanwhile; it is ${latest.status}.`);
  }
  await tx.cardStatusChange.create({ data: { card_id: current.id, from: current.status, to, changed_at: now } });
  const moved = await findOwnCardRow(tx, options.user_id, options.card_id);
  await emitCardStatusChanged(tx, moved, current.status as CardStatus);
  return cardView(tx, moved);
}

/** A physical card's holder activates it with the last four digits printed on it (CRD-422-002 otherwise). */
export function activateCard(tx: FinanceTx, issuer: CardIssuer | undefined, options: { user_id: string; card_id: string; last_four: string }): Promise<CardView> {
  return performCardAction(tx, issuer, {
    ...options,
    action: "activate",
    check: (card) => {
      if (card.last_four !== options.last_four) throw appError("CRD-422-002", "The last four digits do not match this card.");
    },
  });
}
