import { appError } from "../../../lib/errors/app-error.ts";
import { IDEMPOTENCY_KEY_RETENTION_MS } from "../../../lib/idempotency.ts";
import type { ChatActionStatus } from "../../../lib/vocabulary/agents.ts";

/**
 * A proposed chat action's life, the only place that knows it: the assistant proposes; the user
 * confirms (the action is claimed, once) or declines; a confirmed action completes or fails with
 * its write's answer. A proposal past its expiry is `expired` and takes no move. Nothing else moves.
 */
const MOVES: Record<ChatActionStatus, readonly ChatActionStatus[]> = {
  proposed: ["confirmed", "declined"],
  confirmed: ["completed", "failed"],
  completed: [],
  failed: [],
  declined: [],
  expired: [],
};

/** What a row's stored status means now: a proposal whose window passed is expired. */
export function chatActionStatus(row: { status: string; expires_at: Date }, now: Date = new Date()): ChatActionStatus {
  return row.status === "proposed" && row.expires_at <= now ? "expired" : (row.status as ChatActionStatus);
}

/** Refuses a move the life above does not have (CHT-409-001, naming the status). */
export function requireChatActionMove(from: ChatActionStatus, to: ChatActionStatus): void {
  if (MOVES[from].includes(to)) return;
  throw appError("CHT-409-001", `The action is ${from}; it cannot become ${to}.`);
}

/**
 * How long a confirmed action's run may take before a confirmation may run it again: longer than
 * any write waits for its locks and runs (lib/db/with-idempotency.ts's TRANSACTION_OPTIONS).
 */
export const CHAT_ACTION_RUN_MS = 60_000;

/**
 * A confirmed action still unsettled past CHAT_ACTION_RUN_MS: its run was interrupted (the
 * process stopped between the claim and the answer). Confirming it again runs its request again
 * with the same Idempotency-Key, so the write happens at most once and the action gets its answer.
 * Only while that key is surely kept: it was written after the proposal, and keys are kept
 * IDEMPOTENCY_KEY_RETENTION_MS, so a day after the proposal (less a run) a write that ran could
 * run again, and the action stays `confirmed` for good. Not a move: the action stays `confirmed`
 * until an answer settles it.
 */
export function interruptedRun(row: { status: string; decided_at: Date | null; created_at: Date }, now: Date = new Date()): boolean {
  if (row.status !== "confirmed" || row.decided_at === null) return false;
  return now.getTime() - row.decided_at.getTime() >= CHAT_ACTION_RUN_MS && now.getTime() - row.created_at.getTime() < IDEMPOTENCY_KEY_RETENTION_MS - CHAT_ACTION_RUN_MS;
}
