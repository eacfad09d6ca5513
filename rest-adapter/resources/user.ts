import type { RestResource } from "../route-kit/resource-overlay.ts";
import { Address, ChainId } from "../route-kit/schemas.ts";

/**
 * A user in REST (spec 2.2): the GraphQL User's own fields, its wallets and status history only with
 * `expand`; what else GraphQL reaches from a user has its own routes. Its body from CreateUserInput.
 */
export const resource = {
  type: "User",
  inputs: { CreateUserInput: "User" },
  types: {
    User: {
      omit: ["notifications", "strategies", "rules", "widgets", "connectors", "cards", "budgets", "accounts", "bank_accounts", "pints", "identity_record", "kyc"],
      fields: {
        id: { examples: ["usr_01j9z3k4m5n6p7q8r9s0t1v2w3"] },
        auth_provider: { examples: ["provider_a"] },
        wallets: { ref: true, expand: true, description: "only with expand=wallets" },
        status_history: { ref: true, expand: true, description: "only with expand=status_history" },
      },
    },
    CreateUserInput: {
      fields: {
        primary_eoa_address: { schema: Address },
        chain_id: { schema: ChainId },
        issued_at: { acceptsNull: false, description: "with signature: epoch milliseconds written in the signed message" },
        signature: {
          acceptsNull: false,
          pattern: "^0x[0-9a-fA-F]+$",
          description: "optional proof of control when the JWT does not vouch for the address (required only in strict mode, REGISTRATION_PROOF)",
        },
      },
    },
  },
} satisfies RestResource;
