import type { RestResource } from "../route-kit/resource-overlay.ts";
import { DECIMAL_PATTERN, Instant, literalUnion } from "../route-kit/schemas.ts";
import { MAX_NOTE_LENGTH } from "../../lib/contracts/transactions.ts";
import { SANDBOX_PAYMENT_TYPES } from "../../lib/vocabulary/transactions.ts";

const FREE_TEXT = { maxLength: 200 };
const SANDBOX_INPUT = { wallet_id: { minimum: 1 }, asset: { minLength: 1, maxLength: 32, examples: ["USDC"] }, description: FREE_TEXT };
const sandboxAmount = (example: string) => ({ pattern: DECIMAL_PATTERN, maxLength: 80, examples: [example] });

/** The movements a sandbox payment may book: not every transaction type, which GraphQL's String takes. */
export const SandboxPaymentType = literalUnion(SANDBOX_PAYMENT_TYPES, { description: "default transfer" });

/**
 * A ledger movement in REST (spec 2.10, 3.4): the GraphQL Transaction, amounts as decimal strings;
 * its bodies from UpdateTransactionInput and the sandbox's SandboxDepositInput and SandboxPaymentInput.
 */
export const resource = {
  type: "Transaction",
  inputs: { UpdateTransactionInput: "Transaction", SandboxDepositInput: "Transaction", SandboxPaymentInput: "Transaction" },
  types: {
    Transaction: {
      fields: {
        id: { examples: ["txn_01jd2x3y4z5a6b7c8d9e0f1g2h"] },
        status: { description: "pending → processing → completed or failed (spec 3.4)" },
        direction: { description: "in: money arrived at the source; out: it left" },
        amount: { pattern: DECIMAL_PATTERN, examples: ["0.25"] },
        status_history: { description: "every status it went through, oldest first; the first has from null" },
      },
    },
    UpdateTransactionInput: { minProperties: 1, fields: { note: { maxLength: MAX_NOTE_LENGTH } } },
    SandboxDepositInput: { fields: { ...SANDBOX_INPUT, amount: sandboxAmount("25.5") } },
    SandboxPaymentInput: {
      fields: { ...SANDBOX_INPUT, amount: sandboxAmount("15.99"), type: { schema: SandboxPaymentType, acceptsNull: false }, counterparty: FREE_TEXT, timestamp: { schema: Instant } },
    },
    SandboxMerchantInput: {
      fields: { name: { minLength: 1, maxLength: 100, examples: ["Netflix"] }, mcc: { pattern: "^[0-9]{4}$", examples: ["4899"] } },
    },
  },
} satisfies RestResource;
