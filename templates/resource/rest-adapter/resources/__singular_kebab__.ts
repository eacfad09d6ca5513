import type { RestResource } from "../route-kit/resource-overlay.ts";
import { DECIMAL_PATTERN } from "../route-kit/schemas.ts";

const NAME_INPUT = { minLength: 1, maxLength: 100, examples: ["Holiday"] };
const AMOUNT_INPUT = { pattern: DECIMAL_PATTERN, maxLength: 40, description: "positive decimal string in USD, at most 2 decimals", examples: ["1500.00"] };

/** A __singular_words__ in REST: the GraphQL __Singular__, money as a decimal string; its bodies from Create__Singular__Input and Update__Singular__Input. */
export const resource = {
  type: "__Singular__",
  inputs: { Create__Singular__Input: "__Singular__", Update__Singular__Input: "__Singular__" },
  types: {
    __Singular__: {
      fields: {
        id: { examples: ["__prefix___01jd2x3y4z5a6b7c8d9e0f1g2h"] },
        name: { examples: ["Holiday"] },
        target_amount: { pattern: DECIMAL_PATTERN, examples: ["1500"] },
      },
    },
    Create__Singular__Input: { fields: { name: NAME_INPUT, target_amount: AMOUNT_INPUT } },
    Update__Singular__Input: { fields: { name: NAME_INPUT, target_amount: AMOUNT_INPUT } },
  },
} satisfies RestResource;
