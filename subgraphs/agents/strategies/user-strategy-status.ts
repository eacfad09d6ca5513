import { appError } from "../../../lib/errors/app-error.ts";
import type { UserStrategyStatus } from "../../../lib/vocabulary/agents.ts";

/** Who moves a user strategy: its user (enable, disable) or its runs (they kept failing). */
export type UserStrategyCause = "user" | "run_failures";

/**
 * Spec 3.6's states; the moves are ours, the one table: the user enables and disables (an
 * `error` strategy is enabled again once its cause is fixed, or disabled); only failing runs move
 * an enabled strategy to `error`. Nothing else moves, and nothing stays put by "moving".
 */
const MOVES: Record<UserStrategyStatus, Partial<Record<UserStrategyStatus, UserStrategyCause>>> = {
  enabled: { disabled: "user", error: "run_failures" },
  disabled: { enabled: "user" },
  error: { enabled: "user", disabled: "user" },
};

export function canMoveUserStrategy(from: UserStrategyStatus, to: UserStrategyStatus, cause: UserStrategyCause): boolean {
  return MOVES[from][to] === cause;
}

/** Refuses a move the table does not have, with STR-409-001 naming the current status. */
export function requireUserStrategyMove(from: UserStrategyStatus, to: UserStrategyStatus, cause: UserStrategyCause): void {
  if (canMoveUserStrategy(from, to, cause)) return;
  const allowed = Object.entries(MOVES[from])
    .filter(([, by]) => by === cause)
    .map(([status]) => status);
  throw appError("STR-409-001", `The strategy is ${from}; it cannot be ${to === "error" ? "put in error" : to} here` + (allowed.length ? ` (only ${allowed.join(" or ")}).` : "."));
}

/** Failed runs in a row after which an enabled strategy moves to `error`. */
export const MAX_CONSECUTIVE_FAILURES = 3;
