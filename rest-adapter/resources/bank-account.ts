import type { RestResource } from "../route-kit/resource-overlay.ts";
import { DECIMAL_PATTERN } from "../route-kit/schemas.ts";
import { BANK_CONNECTION_STATUSES, BANK_TRANSACTION_TYPES, SANDBOX_BANK_SETTLEMENTS, SANDBOX_CONNECTION_EVENTS, SANDBOX_LINK_OUTCOMES } from "../../lib/vocabulary/bank-accounts.ts";
import { SPENDING_CATEGORIES, TRANSACTION_DIRECTIONS } from "../../lib/vocabulary/transactions.ts";

const TEXT = { minLength: 1, maxLength: 200, acceptsNull: false } as const;

/**
 * A linked bank account in REST (spec 2.10), written inline by the Open Banking and Bank Accounts
 * routes; the sandbox bank's bodies from SandboxBankLinkInput, SandboxBankTransactionInput,
 * SandboxBankSettlementInput and SandboxBankConnectionEventInput (their values are lib/vocabulary's lists: GraphQL takes Strings).
 */
export const resource = {
  type: "BankAccount",
  component: false,
  inputs: { SandboxBankLinkInput: "BankAccount", SandboxBankTransactionInput: "BankAccount", SandboxBankSettlementInput: "BankAccount", SandboxBankConnectionEventInput: "BankAccount" },
  types: {
    BankAccount: {
      fields: {
        mask: { description: "the last four digits of the account number; the rest is never stored" },
        connection_status: {
          values: BANK_CONNECTION_STATUSES,
          description: "active; reauth_required (the bank wants the user to log in again); error (the provider lost the login); revoked (unlinked). The provider's link.* webhooks move it; revoked is final",
        },
        synced_at: { orNull: { description: "when its transactions last synced; null before the first sync" } },
      },
    },
    SandboxBankLinkInput: { fields: { link_token: { minLength: 1, maxLength: 2000 }, institution_id: { minLength: 1, maxLength: 100 }, outcome: { values: SANDBOX_LINK_OUTCOMES, acceptsNull: false } } },
    SandboxBankTransactionInput: {
      fields: {
        amount: { pattern: DECIMAL_PATTERN, maxLength: 40, description: "in the account's currency, cents at most", examples: ["42.10"] },
        direction: { values: TRANSACTION_DIRECTIONS },
        type: { values: BANK_TRANSACTION_TYPES },
        description: { minLength: 1, maxLength: 200 },
        category: { values: SPENDING_CATEGORIES, acceptsNull: false },
        merchant_name: TEXT,
        counterparty: TEXT,
        pending: { acceptsNull: false, default: false },
      },
    },
    SandboxBankSettlementInput: { fields: { outcome: { values: SANDBOX_BANK_SETTLEMENTS }, amount: { pattern: DECIMAL_PATTERN, maxLength: 40, acceptsNull: false } } },
    SandboxBankConnectionEventInput: { fields: { event: { values: SANDBOX_CONNECTION_EVENTS } } },
  },
} satisfies RestResource;
