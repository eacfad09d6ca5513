import { appError } from "../../../lib/errors/app-error.ts";
import type { CardAuthorizationStatus, CardDeclineReason } from "../../../lib/vocabulary/cards.ts";
import { Prisma } from "../db.ts";
import type { Card } from "../types/card.ts";

/** Everything an authorization is decided on, read under the card's and the funding source's locks. */
export interface AuthorizationFacts {
  card: Pick<Card, "status" | "currency" | "controls">;
  /** what the merchant asks: a positive decimal string in `currency`, and its four-digit MCC */
  request: { amount: string; currency: string; mcc: string };
  /** the card's approved purchases so far in the holder's current day and month (card-spending.ts) */
  spent: { day: string; month: string };
  /** what the funding source may still spend, in the settlement asset (one to one with the card's currency); null: no usable funding source */
  available: string | null;
}

export type AuthorizationDecision = { decision: "approved" } | { decision: "declined"; reason: CardDeclineReason };

const D = (value: string) => new Prisma.Decimal(value);
/** `total` over a limit: exactly at the limit passes; no limit, nothing to exceed. */
const over = (limit: string | null, total: Prisma.Decimal) => limit !== null && total.greaterThan(D(limit));

/**
 * The one decision every authorization goes through, each rule in the order of
 * CARD_DECLINE_REASONS, the first that fails naming the decline: the card is active; the amount
 * is in the card's currency; within single_transaction_limit; the day's and the month's approved
 * totals plus it within their limits; the MCC in allowed_mcc (when set) and not in blocked_mcc;
 * the funding source's available balance covering it. Exact decimals throughout, never floats.
 */
export function decideAuthorization(facts: AuthorizationFacts): AuthorizationDecision {
  const declined = (reason: CardDeclineReason): AuthorizationDecision => ({ decision: "declined", reason });
  const { card, request } = facts;
  const amount = D(request.amount);
  if (card.status !== "active") return declined("card_inactive");
  if (request.currency.toUpperCase() !== card.currency.toUpperCase()) return declined("currency_mismatch");
  if (over(card.controls.single_transaction_limit, amount)) return declined("single_transaction_limit_exceeded");
  if (over(card.controls.daily_limit, D(facts.spent.day).plus(amount))) return declined("daily_limit_exceeded");
  if (over(card.controls.monthly_limit, D(facts.spent.month).plus(amount))) return declined("monthly_limit_exceeded");
  if (card.controls.allowed_mcc.length > 0 && !card.controls.allowed_mcc.includes(request.mcc)) return declined("mcc_not_allowed");
  if (card.controls.blocked_mcc.includes(request.mcc)) return declined("mcc_blocked");
  if (facts.available === null || amount.greaterThan(D(facts.available))) return declined("insufficient_funds");
  return { decision: "approved" };
}

/** What may be done to an authorization after the decision, and from which status (the simulator plays the network). */
export const AUTHORIZATION_ACTIONS = {
  capture: { from: ["pending"], to: "captured" },
  reverse: { from: ["pending"], to: "reversed" },
  // a partial refund leaves it captured; the one that reaches the captured amount makes it refunded
  refund: { from: ["captured"], to: "refunded" },
} as const satisfies Record<string, { from: readonly CardAuthorizationStatus[]; to: CardAuthorizationStatus }>;
export type AuthorizationAction = keyof typeof AUTHORIZATION_ACTIONS;

export function canActOnAuthorization(status: CardAuthorizationStatus, action: AuthorizationAction): boolean {
  return (AUTHORIZATION_ACTIONS[action].from as readonly CardAuthorizationStatus[]).includes(status);
}

/** Refuses an action the authorization's status does not allow (capturing twice, refunding before capture), with CRD-409-002 naming the status. */
export function requireAuthorizationAction(status: CardAuthorizationStatus, action: AuthorizationAction): void {
  if (canActOnAuthorization(status, action)) return;
  const allowed = (Object.keys(AUTHORIZATION_ACTIONS) as AuthorizationAction[]).filter((other) => canActOnAuthorization(status, other));
  throw appError("CRD-409-002", `The authorization is ${status}; it cannot be ${action === "capture" ? "captured" : action === "reverse" ? "reversed" : "refunded"}` + (allowed.length ? ` (only ${allowed.join(" or ")}).` : " (nothing more can happen to it)."));
}
