import type { UserRuleStatus } from "../../../lib/vocabulary/agents.ts";
import type { AgentsTx } from "../db.ts";
import { notify } from "../notifications/notifications.ts";

/**
 * A rule's state, spec 3.6's user strategy states, read from two columns: `enabled` (it fires)
 * and `last_error` (why automation stopped it). The user moves a rule between enabled and
 * disabled, from error too (PATCH `enabled`, which clears the error); only automation moves an
 * enabled rule to error (stopRules).
 */
export function ruleStatus(row: { enabled: boolean; last_error: string | null }): UserRuleStatus {
  if (row.enabled) return "enabled";
  return row.last_error === null ? "disabled" : "error";
}

/**
 * Puts the user's enabled rules `ruleIds` in `error` with `reason` and tells the user, one
 * notification per rule stopped (once per firing that stopped it), in the caller's transaction.
 * A rule already disabled or in error stays as it is. Answers the ids stopped.
 */
export async function stopRules(tx: AgentsTx, userId: string, ruleIds: readonly string[], reason: string, firingId: string, now: Date): Promise<string[]> {
  const rules = await tx.userRule.findMany({ where: { id: { in: [...ruleIds] }, user_id: userId, enabled: true }, select: { id: true, name: true } });
  const stopped: string[] = [];
  for (const rule of rules) {
    const { count } = await tx.userRule.updateMany({ where: { id: rule.id, enabled: true }, data: { enabled: false, last_error: reason, updated_at: now } });
    if (count === 0) continue;
    stopped.push(rule.id);
    await notify(tx, { user_id: userId, source: `rule:${rule.id}`, title: `Rule "${rule.name}" stopped`, body: reason, data: { rule_id: rule.id, status: "error", firing_id: firingId }, dedupe_key: `rule-stopped:${rule.id}:${firingId}` });
  }
  return stopped;
}
