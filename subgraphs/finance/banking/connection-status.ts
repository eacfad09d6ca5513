import type { BankConnectionStatus } from "../../../lib/vocabulary/bank-accounts.ts";

/** What the provider reports about a login (its link.* webhooks). */
export type ConnectionTrigger = "link_completed" | "link_failed" | "reauth_required";

/**
 * The one table of a bank connection's moves. The provider's reports move a live connection
 * between active, reauth_required and error (a new successful login makes it active again);
 * `revoked` (the user unlinked it) is final, whatever the provider says later.
 */
const MOVES: Record<BankConnectionStatus, Partial<Record<ConnectionTrigger, BankConnectionStatus>>> = {
  active: { link_failed: "error", reauth_required: "reauth_required" },
  reauth_required: { link_completed: "active", link_failed: "error" },
  error: { link_completed: "active", reauth_required: "reauth_required" },
  revoked: {},
};

/** The status `trigger` moves `from` to, or null when the table has no such move. */
export function nextConnectionStatus(from: BankConnectionStatus, trigger: ConnectionTrigger): BankConnectionStatus | null {
  return MOVES[from][trigger] ?? null;
}
