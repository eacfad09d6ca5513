import type { AutomationCause } from "../../../lib/automation-finance.ts";
import type { ActionSettings } from "../../../lib/contracts/rules.ts";
import { newId } from "../../../lib/ids.ts";
import type { RuleAction, RuleActionOutcome, RuleExecutionOutcome } from "../../../lib/vocabulary/agents.ts";
import { causeOfReaction, ruleIdsIn, ruleLink, strategyLink } from "../automation/causation.ts";
import type { AgentsTx, Prisma } from "../db.ts";
import { notify } from "../notifications/notifications.ts";
import { emitEvent } from "../outbox/outgoing-events.ts";
import { insertAgentTask } from "../tasks/agent-tasks.ts";
import { decideFiring, stopReason } from "./rule-limits.ts";
import { stopRules } from "./rule-status.ts";

const HOUR_MS = 3_600_000;

export interface RuleRow {
  id: string;
  user_id: string;
  name: string;
  action_type: string;
  action: Prisma.JsonValue;
  created_with_scopes: string[];
  last_fired_at: Date | null;
}

/** What fired a rule: a key unique per rule (the ledger event, the schedule slot, the price crossing) and what it saw. */
export interface RuleEvent {
  key: string;
  data: Record<string, unknown>;
  description: string;
  /** the automation that made the event's movement; null or absent: the user's own, the clock, a price */
  cause?: AutomationCause | null;
}

/**
 * Fires a rule once per event, in the caller's transaction: the execution row (unique per rule
 * and event: a second firing for the same event is not made) and its action. First the limits
 * (rule-limits.ts decideFiring): on a movement its own chain caused, past the chain depth or past
 * its hourly cap the rule is stopped (`stopped`: it, and every rule of a loop, go to `error` with
 * a notification saying why); inside its cooldown the trigger is `skipped`. A notification is
 * written at once; a transfer or a strategy run is queued as an agent task keyed by the
 * execution and carrying its cause (the event's chain plus this rule), so money moves once,
 * durably, and its movements say what caused them. A transfer from a rule an agent token made
 * without write:transfers is recorded as failed and moves nothing. A firing whose action ran or
 * failed to start emits user_rule.fired (issue 29) with the execution; a second firing for the
 * event emits nothing.
 */
export async function fireRule(tx: AgentsTx, rule: RuleRow, event: RuleEvent, now = new Date()): Promise<string | null> {
  if (await tx.userRuleExecution.findUnique({ where: { rule_id_event_key: { rule_id: rule.id, event_key: event.key } }, select: { id: true } })) return null;
  const id = newId("rex", now.getTime());
  const record = async (outcome: RuleExecutionOutcome, detail: string | null, task_id: string | null) =>
    tx.userRuleExecution.create({ data: { id, rule_id: rule.id, event_key: event.key, event: event.data as Prisma.InputJsonValue, outcome, detail, task_id, created_at: now } });

  const firings_last_hour = await tx.userRuleExecution.count({ where: { rule_id: rule.id, outcome: "fired", created_at: { gt: new Date(now.getTime() - HOUR_MS) } } });
  const decision = decideFiring({ rule: { id: rule.id, action_type: rule.action_type as RuleAction, last_fired_at: rule.last_fired_at }, cause: event.cause, firings_last_hour, now });
  if (decision.outcome === "skip") {
    await record("skipped", decision.reason, null);
    return id;
  }
  if (decision.outcome === "stop") {
    const named = [rule.id, ...ruleIdsIn(decision.loop)];
    const names = new Map((await tx.userRule.findMany({ where: { id: { in: named }, user_id: rule.user_id }, select: { id: true, name: true } })).map((row) => [row.id, row.name]));
    const reason = stopReason(decision, rule.id, names);
    await record("stopped", reason, null);
    await stopRules(tx, rule.user_id, decision.rule_ids, reason, id, now);
    return id;
  }

  const action = rule.action as Record<string, unknown>;
  let outcome: RuleActionOutcome = "fired";
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
      const cause = causeOfReaction(event.cause, event.key, [ruleLink(rule.id)], id);
      task_id = await insertAgentTask(tx, { user_id: rule.user_id, kind: "transfer", title: `Rule ${rule.name}: transfer ${settings.amount} ${settings.asset}`, input: settings, scheduled_at: now, user_strategy_id: null, dedupe_key: `rule:${id}`, cause }, now);
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
      const cause = causeOfReaction(event.cause, event.key, [ruleLink(rule.id), strategyLink(strategy.id)], id);
      task_id = await insertAgentTask(tx, { user_id: rule.user_id, kind: "strategy_run", title: `Rule ${rule.name}: run strategy`, input: { user_strategy_id: strategy.id }, scheduled_at: now, user_strategy_id: strategy.id, dedupe_key: `rule:${id}`, cause }, now);
      break;
    }
  }
  await record(outcome, detail, task_id);
  await tx.userRule.update({ where: { id: rule.id }, data: { last_fired_at: now } });
  await emitEvent(tx, {
    type: "user_rule.fired",
    user_id: rule.user_id,
    resource: { type: "user_rule", id: rule.id },
    data: { id, rule_id: rule.id, user_id: rule.user_id, action_type: rule.action_type as RuleAction, outcome, detail, task_id, event_key: event.key, created_at: now.getTime() },
  });
  return id;
}
