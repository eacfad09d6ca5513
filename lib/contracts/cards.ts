/** How long a challenge may be answered; short, since it unlocks the number and CVV. */
export const CARD_DETAILS_CHALLENGE_TTL_MS = 5 * 60_000;

/** At most this many reveals per card in any rolling CARD_REVEAL_WINDOW_MS (then CRD-429-001 with Retry-After). */
export const CARD_REVEALS_PER_WINDOW = 5;
export const CARD_REVEAL_WINDOW_MS = 60 * 60_000;
