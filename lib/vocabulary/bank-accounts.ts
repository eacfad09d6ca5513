/** Kinds of bank account (spec 2.10's `account_type`; its values are ours). */
export const BANK_ACCOUNT_TYPES = ["checking", "savings", "credit"] as const;
export type BankAccountType = (typeof BANK_ACCOUNT_TYPES)[number];

/** A bank connection: `active`, `reauth_required` (the bank wants a new login) or `revoked` (unlinked). */
export const BANK_CONNECTION_STATUSES = ["active", "reauth_required", "revoked"] as const;
export type BankConnectionStatus = (typeof BANK_CONNECTION_STATUSES)[number];
