import type { RestResource } from "../route-kit/resource-overlay.ts";
import { TRANSACTION_STATUSES } from "../../lib/vocabulary/transactions.ts";
import { RAMP_TERMS } from "./ramp-quote.ts";

/** An on- or off-ramp in REST, written inline by the Ramps routes. */
export const resource = {
  type: "Ramp",
  component: false,
  types: {
    Ramp: {
      fields: {
        ...RAMP_TERMS,
        status: {
          values: TRANSACTION_STATUSES,
          description: "its ledger transaction's (spec 3.4): pending when recorded, then processing, completed or failed as the provider reports by webhook",
        },
      },
    },
  },
} satisfies RestResource;
