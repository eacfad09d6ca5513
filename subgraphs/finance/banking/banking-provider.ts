import type { BankAccountType, BankTransactionType, RampDirection } from "../../../lib/vocabulary/bank-accounts.ts";
import type { SpendingCategory } from "../../../lib/vocabulary/transactions.ts";

/** An account as the provider reports it. */
export interface ProviderBankAccount {
  provider_account_id: string;
  name: string;
  account_type: BankAccountType;
  currency: string;
  /** the last four digits of the account number */
  mask: string;
  /** decimal string in `currency`, or null when the bank does not say */
  balance: string | null;
}

/** What exchanging a public token yields: the login's long-lived access token and its accounts. */
export interface LinkedItem {
  access_token: string;
  /** the login's id at the provider: its webhooks name it */
  item_id: string;
  /** the public token's own id: each public token links once */
  public_token_id: string;
  user_id: string;
  institution: { id: string; name: string };
  accounts: ProviderBankAccount[];
}

/** A transaction at the bank, as the provider's transactions sync reports it. */
export interface ProviderBankTransaction {
  provider_transaction_id: string;
  provider_account_id: string;
  /** positive decimal string in `currency`; `direction` says which way */
  amount: string;
  direction: "in" | "out";
  currency: string;
  type: BankTransactionType;
  category: SpendingCategory | null;
  description: string;
  merchant_name: string | null;
  counterparty: string | null;
  /** not yet posted by the bank */
  pending: boolean;
  /** when it happened at the bank */
  date: Date;
}

/**
 * One page of a cursor-based transactions sync (Plaid's /transactions/sync): what changed since
 * `cursor`. Applying a page and keeping `next_cursor` must happen together; asking again with the
 * same cursor answers the same changes.
 */
export interface TransactionsSyncPage {
  added: ProviderBankTransaction[];
  modified: ProviderBankTransaction[];
  removed: { provider_transaction_id: string; provider_account_id: string }[];
  /** the accounts' current balances */
  balances: { provider_account_id: string; balance: string | null }[];
  next_cursor: string;
  has_more: boolean;
}

/** What the provider charges for a ramp: `percent` of the fiat amount, at least `minimum` (in the fiat currency). */
export interface RampFees {
  percent: string;
  minimum: string;
}

/** A ramp as we ask the provider to carry it out (its reference is our ramp id). */
export interface RampOrder {
  ramp_id: string;
  direction: RampDirection;
  access_token: string;
  provider_account_id: string;
  /** the wallet's chain and address: where an on-ramp delivers, where an off-ramp's asset comes from */
  chain_id: number;
  wallet_address: string;
  asset_symbol: string;
  asset_amount: string;
  currency: string;
  fiat_amount: string;
}

/**
 * An open-banking provider (BANKING_PROVIDER): the sandbox offline, or a real one (Plaid,
 * TrueLayer) behind the same calls, in Plaid Link's shape. The user's app gets a short-lived link
 * token for the provider's widget; the widget hands back a public token; we exchange it, once,
 * for an access token we keep sealed. Transactions sync by cursor; ramps are carried out by the
 * provider, which reports their outcome through its signed webhooks.
 */
export interface BankingProvider {
  readonly name: string;
  createLinkToken(userId: string, now: Date): Promise<{ link_token: string; expires_at: Date }>;
  /** BNK-400-001 for a token that is not this provider's, expired, or another user's */
  exchangePublicToken(publicToken: string, userId: string, now: Date): Promise<LinkedItem>;
  /** revokes the login at the provider (unlinking); idempotent */
  removeItem(accessToken: string): Promise<void>;
  /**
   * Told once the login is stored. A real provider announces the first transactions itself (by
   * webhook, when its initial pull is done); the sandbox announces its history here, as they do.
   */
  linked?(item: LinkedItem): Promise<void>;
  /** the changes since `cursor` (null: from the beginning of the login's history) */
  syncTransactions(accessToken: string, cursor: string | null): Promise<TransactionsSyncPage>;
  rampFees(direction: RampDirection, currency: string): RampFees;
  /** accepts the order (idempotent on `ramp_id`) and answers the provider's id for it; its progress comes by webhook */
  createRamp(order: RampOrder): Promise<{ provider_ramp_id: string }>;
  /**
   * Told once the ramp is stored. A real provider reports it under way by webhook when it starts
   * moving the money; the sandbox reports it here (ramp.processing), so every move is a webhook's.
   */
  rampStored?(providerRampId: string): Promise<void>;
}
