/** Spec 2.10: the kinds of card. */
export const CARD_TYPES = ["virtual", "physical"] as const;
export type CardType = (typeof CARD_TYPES)[number];

/** Spec 3.3 (the moves between them: subgraphs/finance/cards/card-status.ts). */
export const CARD_STATUSES = ["pending", "active", "suspended", "closed"] as const;
export type CardStatus = (typeof CARD_STATUSES)[number];

/** Spec 2.10: what a card spends from. */
export const CARD_FUNDING_SOURCE_TYPES = ["crypto_wallet", "bank_account"] as const;
export type CardFundingSourceType = (typeof CARD_FUNDING_SOURCE_TYPES)[number];

/** Why an authorization was declined, in the order the rules are checked. */
export const CARD_DECLINE_REASONS = ["card_inactive", "currency_mismatch", "single_transaction_limit_exceeded", "daily_limit_exceeded", "monthly_limit_exceeded", "mcc_not_allowed", "mcc_blocked", "insufficient_funds"] as const;
export type CardDeclineReason = (typeof CARD_DECLINE_REASONS)[number];

/** What was decided of an authorization request. */
export const CARD_AUTHORIZATION_DECISIONS = ["approved", "declined"] as const;
export type CardAuthorizationDecision = (typeof CARD_AUTHORIZATION_DECISIONS)[number];

/** An authorization: declined at once, or approved and pending until captured, reversed or refunded. */
export const CARD_AUTHORIZATION_STATUSES = ["declined", "pending", "captured", "reversed", "refunded"] as const;
export type CardAuthorizationStatus = (typeof CARD_AUTHORIZATION_STATUSES)[number];

/** How a reveal of a card's details was proven: an EIP-191 signature of a challenge by the primary EOA. */
export const CARD_REVEAL_METHODS = ["eip191"] as const;
export type CardRevealMethod = (typeof CARD_REVEAL_METHODS)[number];
