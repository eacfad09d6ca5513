/** Kinds of bank account (spec 2.10's `account_type`; its values are ours). */
export const BANK_ACCOUNT_TYPES = ["checking", "savings", "credit"] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];

/**
 * A bank connection: `active`, `reauth_required` (the bank wants a new login), `error` (the
 * provider lost the login) or `revoked` (unlinked). The moves: subgraphs/finance/banking/connection-status.ts.
 */
export const BANK_CONNECTION_STATUSES = ["active", "reauth_required", "error", "revoked"] as const;
export type BankConnectionStatus = (typeof BANK_CONNECTION_STATUSES)[number];

/** The ledger types a synced bank transaction may have (spec 2.10). */
export const BANK_TRANSACTION_TYPES = ["bank_transfer", "direct_debit", "standing_order", "bank_payment", "bank_refund", "interest", "fee"] as const;
export type BankTransactionType = (typeof BANK_TRANSACTION_TYPES)[number];

/** On-ramp: bank account → crypto asset in a wallet; off-ramp: wallet → bank account. */
export const RAMP_DIRECTIONS = ["on", "off"] as const;
export type RampDirection = (typeof RAMP_DIRECTIONS)[number];

/** The banking provider's webhook event types (rest-adapter/webhooks/banking-provider-events.ts documents their payloads). */
export const BANKING_EVENT_TYPES = ["link.completed", "link.failed", "link.reauth_required", "transactions.available", "ramp.processing", "ramp.completed", "ramp.failed"] as const;
export type BankingEventType = (typeof BANKING_EVENT_TYPES)[number];

/** How the sandbox's widget ends: the user logs in, or the bank refuses the credentials. */
export const SANDBOX_LINK_OUTCOMES = ["success", "invalid_credentials"] as const;
export type SandboxLinkOutcome = (typeof SANDBOX_LINK_OUTCOMES)[number];

/** What the sandbox provider may report about a login (a subset of BANKING_EVENT_TYPES). */
export const SANDBOX_CONNECTION_EVENTS = ["link.completed", "link.failed", "link.reauth_required"] as const satisfies readonly BankingEventType[];

/** How a sandbox bank transaction or ramp ends. */
export const SANDBOX_BANK_SETTLEMENTS = ["posted", "removed"] as const;
export type SandboxBankSettlement = (typeof SANDBOX_BANK_SETTLEMENTS)[number];
export const SANDBOX_RAMP_OUTCOMES = ["completed", "failed"] as const;
export type SandboxRampOutcome = (typeof SANDBOX_RAMP_OUTCOMES)[number];
