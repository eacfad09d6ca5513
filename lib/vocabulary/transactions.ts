/** Spec 2.10: the kinds of movement the ledger records. */
export const TRANSACTION_TYPES = [
  "deposit",
  "withdrawal",
  "transfer",
  "swap",
  "card_purchase",
  "card_refund",
  "on_ramp",
  "off_ramp",
  "bank_transfer",
  "direct_debit",
  "standing_order",
  "bank_payment",
  "bank_refund",
  "interest",
  "fee",
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** Spec 3.4 (the moves between them: subgraphs/finance/transactions/transaction-status.ts). */
export const TRANSACTION_STATUSES = ["pending", "processing", "completed", "failed"] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Amounts are always positive; the direction says whether money came in or went out of the source. */
export const TRANSACTION_DIRECTIONS = ["in", "out"] as const;
export type TransactionDirection = (typeof TRANSACTION_DIRECTIONS)[number];

/** Spec 2.10: the budget categories, also a transaction's spending category. */
export const SPENDING_CATEGORIES = ["restaurants", "groceries", "transportation", "entertainment", "shopping", "utilities", "travel", "health", "other"] as const;
export type SpendingCategory = (typeof SPENDING_CATEGORIES)[number];

/** The outgoing movements the sandbox's payment helper may play (POST /v0/sandbox/payments), and how far back it may date them. */
export const SANDBOX_PAYMENT_TYPES = ["transfer", "withdrawal", "fee"] as const satisfies readonly TransactionType[];
export const SANDBOX_BACKDATE_DAYS = 400;

/** What a movement is booked against: one of the user's wallets, cards or bank accounts (spec 2.10 account sources), or an account at an exchange a connector reports. */
export const LEDGER_SOURCE_KINDS = ["wallet", "card", "bank_account", "external_account"] as const;
export type LedgerSourceKind = (typeof LEDGER_SOURCE_KINDS)[number];
