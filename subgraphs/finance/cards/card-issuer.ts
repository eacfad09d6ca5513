import { appError } from "../../../lib/errors/app-error.ts";
import type { CardType } from "../../../lib/vocabulary/cards.ts";

/** What an issuer answers for a new card: the only time the full number and CVV cross our code. */
export interface IssuedCard {
  issuer_card_id: string;
  number: string;
  cvv: string;
  expiry_month: number;
  expiry_year: number;
  /** a virtual card is usable once the issuer confirms it; a physical one waits for its holder to activate it */
  confirmed: boolean;
}

export interface CardIssueRequest {
  card_id: string;
  user_id: string;
  type: CardType;
  currency: string;
  shipping_address: Record<string, unknown> | null;
}

/**
 * A card processor (CARD_ISSUER): the sandbox issuer offline, or a real processor (Stripe Issuing,
 * Marqeta, Lithic) behind the same three calls. Status changes are told to the issuer before they
 * are stored, so a card we show as frozen is frozen at the network too.
 */
export interface CardIssuer {
  readonly name: string;
  issue(request: CardIssueRequest): Promise<IssuedCard>;
  setStatus(issuerCardId: string, status: "active" | "suspended" | "closed"): Promise<void>;
}

/** The configured issuer, which must be the one that issued `name`'s cards when given; else CRD-503-001. */
export function requireIssuer(issuer: CardIssuer | undefined, name?: string): CardIssuer {
  if (!issuer || (name !== undefined && issuer.name !== name)) throw appError("CRD-503-001", name ? `The issuer of this card (${name}) is not configured (CARD_ISSUER).` : undefined);
  return issuer;
}
