import type { RestResource } from "../route-kit/resource-overlay.ts";
import { BANK_CONNECTION_STATUSES } from "../../lib/vocabulary/bank-accounts.ts";

/** A linked bank account in REST (spec 2.10), written inline by the Open Banking and Bank Accounts routes. */
export const resource = {
  type: "BankAccount",
  component: false,
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
  },
} satisfies RestResource;
