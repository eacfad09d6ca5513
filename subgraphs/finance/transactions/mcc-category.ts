import type { SpendingCategory } from "../../../lib/vocabulary/transactions.ts";

type Range = readonly [number, number];

/**
 * Merchant category codes (ISO 18245, as card networks send them) by spending category; the
 * first range that holds a code decides. Whatever retail code is left (5000–5999) is shopping.
 */
const MCC_CATEGORIES: readonly (readonly [SpendingCategory, readonly (number | Range)[]])[] = [
  ["restaurants", [[5811, 5814]]],
  ["groceries", [5411, 5422, 5441, 5451, 5462, 5499]],
  ["travel", [[3000, 3299], [3351, 3441], [3501, 3999], 4411, 4511, 4582, 4722, 4723, 7011, 7012, 7032, 7033, 7512, 7513, 7519]],
  ["transportation", [4011, 4111, 4112, 4121, 4131, 4784, 4789, 5541, 5542, 5552, 7511, 7523, 7531, 7534, 7535, 7538, 7542, 7549]],
  ["entertainment", [4899, 5735, [5815, 5818], 7829, 7832, 7841, 7911, 7922, 7929, 7932, 7933, 7941, [7991, 7999]]],
  ["utilities", [4814, 4815, 4816, 4821, 4900]],
  ["health", [4119, 5047, 5122, 5912, 5975, 5976, [8011, 8099]]],
  ["shopping", [[5000, 5999]]],
];

/** The spending category of a four-digit merchant category code; null when there is none or it says nothing. */
export function categoryOfMcc(mcc: string | null | undefined): SpendingCategory | null {
  if (!mcc || !/^[0-9]{4}$/.test(mcc)) return null;
  const code = Number(mcc);
  for (const [category, codes] of MCC_CATEGORIES) {
    if (codes.some((entry) => (typeof entry === "number" ? entry === code : code >= entry[0] && code <= entry[1]))) return category;
  }
  return null;
}
