import { appError } from "../../../lib/errors/app-error.ts";
import type { AgentTaskStatus } from "../../../lib/vocabulary/agents.ts";

/**
 * Spec 3.5, the only place that knows it: queued → next (due, claimed by a runner) → running →
 * completed, failed or cancelled. Nothing else moves: a queued task cannot be cancelled (it has
 * not started; the spec cancels only running ones) and a final status is final.
 */
const MOVES: Record<AgentTaskStatus, readonly AgentTaskStatus[]> = {
  queued: ["next"],
  next: ["running"],
  running: ["completed", "failed", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
};

export function canMoveTask(from: AgentTaskStatus, to: AgentTaskStatus): boolean {
  return MOVES[from].includes(to);
}

export function isFinalTaskStatus(status: AgentTaskStatus): boolean {
  return MOVES[status].length === 0;
}

/** Refuses a move spec 3.5 does not have, with TSK-409-001 naming the current status. */
export function requireTaskMove(from: AgentTaskStatus, to: AgentTaskStatus): void {
  if (canMoveTask(from, to)) return;
  const allowed = MOVES[from];
  throw appError("TSK-409-001", `The task is ${from}; it cannot move to ${to}` + (allowed.length ? ` (only to ${allowed.join(" or ")}).` : ` (${from} is final).`));
}
