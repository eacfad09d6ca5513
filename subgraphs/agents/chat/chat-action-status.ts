import { appError } from "../../../lib/errors/app-error.ts";
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
