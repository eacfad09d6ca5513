import type { RestResource } from "../route-kit/resource-overlay.ts";
import { PINT_MANDATE } from "./pint-mandate.ts";

/** What POST /v0/idsvc/token/pint answers, written inline with _links: the PINT JWT and its stored mandate. */
export const resource = {
  type: "PintExchange",
  component: false,
  types: { PintExchange: { fields: { token_type: { values: ["JWT"] } } }, PintMandate: PINT_MANDATE },
} satisfies RestResource;
