import { validationError } from "./errors/app-error.ts";

/**
 * A list field's `limit` argument: `fallback` when absent, else an integer from 1 to `max`; any
 * other is GEN-422-001 at `limit`, item for item what the REST route's query schema answers,
 * so GraphQL refuses what REST refuses instead of quietly clamping it.
 */
export function listLimit(limit: number | null | undefined, bounds: { fallback: number; max: number }): number {
  if (limit == null) return bounds.fallback;
  if (!Number.isInteger(limit) || limit < 1) throw validationError(["limit"], "Input should be greater than or equal to 1", limit, "greater_than_equal", { ge: 1 });
  if (limit > bounds.max) throw validationError(["limit"], `Input should be less than or equal to ${bounds.max}`, limit, "less_than_equal", { le: bounds.max });
  return limit;
}
