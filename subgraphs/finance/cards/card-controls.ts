import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { parseAmount } from "../transactions/amount.ts";
import type { CardControls, CardControlsInput } from "../types/card.ts";

export const NO_CONTROLS: CardControls = { daily_limit: null, monthly_limit: null, single_transaction_limit: null, allowed_mcc: [], blocked_mcc: [] };
export const MAX_MCC_ENTRIES = 200;
const LIMITS = ["daily_limit", "monthly_limit", "single_transaction_limit"] as const;

function mccList(value: string[] | null | undefined, loc: (string | number)[]): string[] | undefined {
  if (value === undefined) return undefined;
  if (value === null) return [];
  if (value.length > MAX_MCC_ENTRIES) throw validationError(loc, `List should have at most ${MAX_MCC_ENTRIES} items`, value.length, "too_long", { max_length: MAX_MCC_ENTRIES });
  value.forEach((mcc, i) => {
    if (typeof mcc !== "string" || !/^[0-9]{4}$/.test(mcc)) throw validationError([...loc, i], "Input should be a four-digit merchant category code", mcc, "string_pattern_mismatch");
  });
  return [...new Set(value)].sort();
}

/**
 * `current` with `input` applied and checked as a whole: limits are positive decimal strings
 * within the currency's `decimals`, MCCs four digits, and allowed_mcc and blocked_mcc are never
 * both set (CRD-422-001), whichever request set the other one.
 */
export function applyControls(current: CardControls, input: CardControlsInput | null | undefined, decimals: number, loc: (string | number)[] = ["controls"]): CardControls {
  const next: CardControls = { ...current };
  for (const name of LIMITS) {
    const value = input?.[name];
    if (value !== undefined) next[name] = value === null ? null : parseAmount(value, decimals, [...loc, name]);
  }
  next.allowed_mcc = mccList(input?.allowed_mcc, [...loc, "allowed_mcc"]) ?? current.allowed_mcc;
  next.blocked_mcc = mccList(input?.blocked_mcc, [...loc, "blocked_mcc"]) ?? current.blocked_mcc;
  if (next.allowed_mcc.length > 0 && next.blocked_mcc.length > 0)
    throw appError("CRD-422-001", "A card takes allowed_mcc (only these) or blocked_mcc (all but these), not both; clear one with null.");
  return next;
}
