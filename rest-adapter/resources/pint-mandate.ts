import type { RestResource, TypeOverlay } from "../route-kit/resource-overlay.ts";
import { Address } from "../route-kit/schemas.ts";

/** A mandate, also inside an exchange's answer (pint-exchange.ts). */
export const PINT_MANDATE: TypeOverlay = {
  fields: { id: { examples: ["pint_01jb4x8w5n6p7q8r9s0t1v2w3x"] }, wallet: { schema: Address }, signer: { schema: Address } },
};

/** A PINT mandate in REST, written inline by the identity host's PINT routes and the platform host's user-pints.ts. */
export const resource = { type: "PintMandate", component: false, types: { PintMandate: PINT_MANDATE } } satisfies RestResource;
