import type { RestResource } from "../route-kit/resource-overlay.ts";
import { DECIMAL_PATTERN } from "../route-kit/schemas.ts";
import { RAMP_DIRECTIONS } from "../../lib/vocabulary/bank-accounts.ts";

// the terms a quote and a ramp share
export const RAMP_TERMS = {
  direction: { values: RAMP_DIRECTIONS },
  asset: { examples: ["USDC"] },
  fee: { description: "the provider's fee in fiat: 1 %, at least 1.00, at the sandbox provider" },
};

/** A ramp quote in REST, written inline by the Ramps routes; the body of POST /v0/ramps/quote from RampQuoteInput. */
export const resource = {
  type: "RampQuote",
  component: false,
  inputs: { RampQuoteInput: "RampQuote" },
  types: {
    RampQuote: { fields: RAMP_TERMS },
    RampQuoteInput: {
      fields: {
        bank_account_id: { minLength: 1, maxLength: 64 },
        wallet_id: { minimum: 1, maximum: 2_147_483_647 },
        asset: { minLength: 1, maxLength: 32, examples: ["USDC"] },
        amount: { minLength: 1, maxLength: 80, pattern: DECIMAL_PATTERN, description: "on: fiat paid; off: asset sent", examples: ["100.00"] },
      },
    },
  },
} satisfies RestResource;
