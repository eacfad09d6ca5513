import type { BankAccountType, BankTransactionType } from "../vocabulary/bank-accounts.ts";
import type { SpendingCategory } from "../vocabulary/transactions.ts";

/** A transaction of a sandbox account's history: `days_ago` before the login was linked. */
interface HistoryTemplate {
  days_ago: number;
  amount: string;
  direction: "in" | "out";
  type: BankTransactionType;
  category: SpendingCategory | null;
  description: string;
  merchant_name?: string;
  counterparty?: string;
  pending?: boolean;
}

const CHECKING_HISTORY: HistoryTemplate[] = [
  { days_ago: 28, amount: "2450.00", direction: "in", type: "bank_transfer", category: null, description: "Salary", counterparty: "ACME Payroll" },
  { days_ago: 27, amount: "950.00", direction: "out", type: "standing_order", category: "utilities", description: "Rent", counterparty: "Oak Street Lettings" },
  { days_ago: 21, amount: "85.40", direction: "out", type: "direct_debit", category: "utilities", description: "Electricity", merchant_name: "City Power" },
  { days_ago: 12, amount: "64.23", direction: "out", type: "bank_payment", category: "groceries", description: "Groceries", merchant_name: "Green Grocer" },
  { days_ago: 9, amount: "12.99", direction: "in", type: "bank_refund", category: "shopping", description: "Refund", merchant_name: "Book Nook" },
  { days_ago: 3, amount: "2.50", direction: "out", type: "fee", category: null, description: "Monthly account fee" },
  { days_ago: 1, amount: "38.50", direction: "out", type: "bank_payment", category: "restaurants", description: "Dinner", merchant_name: "Trattoria Roma", pending: true },
];

const SAVINGS_HISTORY: HistoryTemplate[] = [
  { days_ago: 25, amount: "200.00", direction: "in", type: "bank_transfer", category: null, description: "Transfer from checking" },
  { days_ago: 2, amount: "4.17", direction: "in", type: "interest", category: null, description: "Interest" },
];

/** An account a login at a sandbox institution has (linking gives it a mask). */
interface SandboxBankAccount {
  provider_account_id: string;
  name: string;
  account_type: BankAccountType;
  currency: string;
  balance: string;
  history: HistoryTemplate[];
}

/**
 * The sandbox's institutions, the accounts a login there has, and each account's history: the
 * finance subgraph's sandbox banking provider serves them, the adapter documents them.
 */
export const SANDBOX_INSTITUTIONS: Record<string, { name: string; accounts: SandboxBankAccount[] }> = {
  ins_sandbox_first: {
    name: "First Sandbox Bank",
    accounts: [
      { provider_account_id: "chk", name: "Everyday Checking", account_type: "checking", currency: "USD", balance: "1250.00", history: CHECKING_HISTORY },
      { provider_account_id: "sav", name: "Rainy Day Savings", account_type: "savings", currency: "USD", balance: "5000.00", history: SAVINGS_HISTORY },
    ],
  },
  ins_sandbox_euro: {
    name: "Euro Sandbox Bank",
    accounts: [{ provider_account_id: "giro", name: "Girokonto", account_type: "checking", currency: "EUR", balance: "840.50", history: CHECKING_HISTORY.slice(0, 4) }],
  },
};
