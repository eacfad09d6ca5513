import { appError } from "../../../lib/errors/app-error.ts";
import type { CardStatus } from "../../../lib/vocabulary/cards.ts";

/** What the holder does to a card, each one move of the table below (the issuer's confirmation is the other pending → active). */
export const CARD_ACTIONS = {
  activate: { from: ["pending"], to: "active" },
  freeze: { from: ["active"], to: "suspended" },
  unfreeze: { from: ["suspended"], to: "active" },
  close: { from: ["active", "suspended"], to: "closed" },
} as const satisfies Record<string, { from: readonly CardStatus[]; to: CardStatus }>;
export type CardAction = keyof typeof CARD_ACTIONS;

/**
 * Spec 3.3, the only place that knows it: pending → active (issuer confirmation or activation),
 * active ⇄ suspended (freeze, unfreeze), active → closed. One move more than the table: suspended
 * → closed, because a lost or stolen card is frozen first, and making its holder unfreeze it to
 * close it would reopen a stolen card to authorizations for that moment. `closed` is final.
 */
const MOVES: Record<CardStatus, readonly CardStatus[]> = {
  pending: ["active"],
  active: ["suspended", "closed"],
  suspended: ["active", "closed"],
  closed: [],
};

export function canMoveCard(from: CardStatus, to: CardStatus): boolean {
  return MOVES[from].includes(to);
}

/** Refuses a move spec 3.3 does not have, with CRD-409-001 naming the current status. */
export function requireCardMove(from: CardStatus, to: CardStatus): void {
  if (!canMoveCard(from, to)) {
    const allowed = MOVES[from];
    throw appError("CRD-409-001", `The card is ${from}; it cannot become ${to}` + (allowed.length ? ` (only ${allowed.join(" or ")}).` : " (closed is final)."));
  }
}

export function canPerform(status: CardStatus, action: CardAction): boolean {
  return (CARD_ACTIONS[action].from as readonly CardStatus[]).includes(status) && canMoveCard(status, CARD_ACTIONS[action].to);
}

/** Refuses an action the card's status does not allow (unfreezing a card that is not frozen), with CRD-409-001 naming the status. */
export function requireCardAction(status: CardStatus, action: CardAction): CardStatus {
  if (!canPerform(status, action)) {
    const allowed = (Object.keys(CARD_ACTIONS) as CardAction[]).filter((other) => canPerform(status, other));
    throw appError("CRD-409-001", `The card is ${status}; it cannot ${action}` + (allowed.length ? ` (only ${allowed.join(" or ")}).` : " (closed is final)."));
  }
  return CARD_ACTIONS[action].to;
}
