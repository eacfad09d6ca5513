import { appError } from "../../../lib/errors/app-error.ts";
import type { UserConnectorStatus } from "../../../lib/vocabulary/agents.ts";

/** What moves a connection: the user (connect again, disconnect) or a sync (it failed, or worked again). */
export type ConnectorTrigger = "reconnect" | "disconnect" | "sync_failed" | "sync_succeeded";

/**
 * Spec 3.6's states; the moves are ours, the one table: a failed sync puts a connected connection
 * in error and a later successful one (or the user connecting again with new credentials) brings
 * it back; the user disconnects from connected or error, and connects a disconnected one again.
 */
const MOVES: Record<UserConnectorStatus, Partial<Record<ConnectorTrigger, UserConnectorStatus>>> = {
  connected: { disconnect: "disconnected", sync_failed: "error", reconnect: "connected" },
  error: { sync_succeeded: "connected", reconnect: "connected", disconnect: "disconnected" },
  disconnected: { reconnect: "connected" },
};

export function nextConnectorStatus(from: UserConnectorStatus, trigger: ConnectorTrigger): UserConnectorStatus | null {
  return MOVES[from][trigger] ?? null;
}

/** The status `trigger` moves `from` to, or CON-409-001 naming the current status. */
export function requireConnectorMove(from: UserConnectorStatus, trigger: ConnectorTrigger): UserConnectorStatus {
  const to = nextConnectorStatus(from, trigger);
  if (to === null) throw appError("CON-409-001", `The connection is ${from}; it cannot ${trigger.replace("_", " ")} now.`);
  return to;
}
