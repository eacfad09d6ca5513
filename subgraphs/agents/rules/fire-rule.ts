import { newId } from "../../../lib/ids.ts";
import type { RuleAction } from "../../../lib/vocabulary/agents.ts";
import type { AgentsTx, Prisma } from "../db.ts";
import { notify } from "../notifications/notifications.ts";
import { insertAgentTask } from "../tasks/agent-tasks.ts";
import type { ActionSettings } from "./rule-definitions.ts";

export interface RuleRow {
  id: string;
  user_id: string;
  name: string;
  action_type: string;
  action: Prisma.JsonValue;
  created_with_scopes: string[];
}

/** What fired a rule: a key unique per rule (the ledger event, the schedule slot, the price crossing) and what it saw. */
export interface RuleEvent {
  key: string;
  data: Record<string, unknown>;
  description: string;
}

/**
 * Fires a rule once per event, in the caller's transaction: the execution row (unique per rule
 * and event: a second firing for the same event is not made) and its action. A notification is
 * written at once; a transfer or a strategy run is queued as an agent task keyed by the
 * execution, so money moves once, durably. A transfer from a rule an agent token made without
 * write:transfers is recorded as failed and moves nothing.
 */
export async function fireRule(tx: AgentsTx, rule: RuleRow, event: RuleEvent, now = new Date()): Promise<string | null> {
  if (await tx.userRuleExecution.findUnique({ where: { rule_id_event_key: { rule_id: rule.id, event_key: event.key } }, select: { id: true } })) return null;
  const id = newId("rex", now.getTime());
  const action = rule.action as Record<string, unknown>;
  let outcome = "fired";
  let detail: string | null = null;
  let task_id: string | null = null;
  switch (rule.action_type as RuleAction) {
    case "notification": {
      const settings = action as ActionSettings<"notification">;
      await notify(tx, { user_id: rule.user_id, source: `rule:${rule.id}`, title: settings.title ?? rule.name, body: settings.message ?? event.description, data: { rule_id: rule.id, ...event.data }, dedupe_key: `rule:${id}` });
      break;
    }
    case "transfer": {
      if (rule.created_with_scopes.length > 0 && !rule.created_with_scopes.includes("write:transfers")) {
        outcome = "failed";
        detail = "The rule was made with an agent token without write:transfers; it moves no money.";
        break;
      }
      const settings = action as ActionSettings<"transfer">;
      task_id = await insertAgentTask(tx, { user_id: rule.user_id, kind: "transfer", title: `Rule ${rule.name}: transfer ${settings.amount} ${settings.asset}`, input: settings, scheduled_at: now, user_strategy_id: null, dedupe_key: `rule:${id}` }, now);
      break;
    }
    case "strategy_trigger": {
      const settings = action as ActionSettings<"strategy_trigger">;
      const strategy = await tx.userStrategy.findFirst({ where: { id: settings.user_strategy_id, user_id: rule.user_id }, select: { id: true } });
      if (!strategy) {
        outcome = "failed";
        detail = `Strategy ${settings.user_strategy_id} no longer exists.`;
        break;
      }
      task_id = await insertAgentTask(tx, { user_id: rule.user_id, kind: "strategy_run", title: `Rule ${rule.name}: run strategy`, input: { user_strategy_id: strategy.id }, scheduled_at: now, user_strategy_id: strategy.id, dedupe_key: `rule:${id}` }, now);
      break;
    }
  }
  await tx.userRuleExecution.create({ data: { id, rule_id: rule.id, event_key: event.key, event: event.data as Prisma.InputJsonValue, outcome, detail, task_id, created_at: now } });
  await tx.userRule.update({ where: { id: rule.id }, data: { last_fired_at: now } });
  return id;
}
