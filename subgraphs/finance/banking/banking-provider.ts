import type { BankAccountType } from "../../../lib/vocabulary/bank-accounts.ts";

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
  /** the public token's own id: each public token links once */
  public_token_id: string;
  user_id: string;
  institution: { id: string; name: string };
  accounts: ProviderBankAccount[];
}

/**
 * An open-banking provider (BANKING_PROVIDER): the sandbox offline, or a real one (Plaid,
 * TrueLayer) behind the same calls, in Plaid Link's shape. The user's app gets a short-lived link
 * token for the provider's widget; the widget hands back a public token; we exchange it, once,
 * for an access token we keep sealed.
 */
export interface BankingProvider {
  readonly name: string;
  createLinkToken(userId: string, now: Date): Promise<{ link_token: string; expires_at: Date }>;
  /** BNK-400-001 for a token that is not this provider's, expired, or another user's */
  exchangePublicToken(publicToken: string, userId: string, now: Date): Promise<LinkedItem>;
  /** revokes the login at the provider (unlinking); idempotent */
  removeItem(accessToken: string): Promise<void>;
}
