import type { AutomationCause } from "../../../lib/automation-finance.ts";
import { MAX_AUTOMATION_DEPTH, RULE_LIMITS } from "../../../lib/contracts/rules.ts";
import type { RuleAction } from "../../../lib/vocabulary/agents.ts";
import { decideReaction, ruleIdsIn, ruleLink } from "../automation/causation.ts";

/** Actions that make movements, and so can start or extend a chain (a strategy_trigger runs a strategy that may move money). */
export const MONEY_MOVING_ACTIONS: readonly RuleAction[] = ["transfer", "strategy_trigger"];

export type FiringDecision =
  | { outcome: "fire" }
  /** inside the cooldown: nothing done, the rule stays enabled */
  | { outcome: "skip"; reason: string }
  /** a loop, a chain too deep or the hourly cap: nothing done, `rule_ids` go to `error` */
  | { outcome: "stop"; why: "loop" | "too_deep" | "hourly_cap"; rule_ids: string[]; loop: string[]; cap?: number };

/**
 * Whether a rule fires on an event, in this order: never on a movement its own chain caused (a
 * loop: it and every rule of the loop are stopped); a money-moving rule not past
 * MAX_AUTOMATION_DEPTH hops (stopped); not past its hourly cap (stopped); not inside its cooldown
 * (skipped). `firings_last_hour`: its `fired` executions in the hour before `now`.
 */
export function decideFiring(input: { rule: { id: string; action_type: RuleAction; last_fired_at: Date | null }; cause: AutomationCause | null | undefined; firings_last_hour: number; now: Date }): FiringDecision {
  const { rule, now } = input;
  const reaction = decideReaction(input.cause, ruleLink(rule.id), MONEY_MOVING_ACTIONS.includes(rule.action_type));
  if (!reaction.allowed && reaction.why === "own_chain") {
    const rule_ids = [...new Set(ruleIdsIn(reaction.loop))];
    return { outcome: "stop", why: "loop", rule_ids, loop: [...reaction.loop, ruleLink(rule.id)] };
  }
  if (!reaction.allowed) return { outcome: "stop", why: "too_deep", rule_ids: [rule.id], loop: [...(input.cause?.chain ?? []), ruleLink(rule.id)] };
  const cap = RULE_LIMITS.firings_per_hour[rule.action_type];
  if (input.firings_last_hour >= cap) return { outcome: "stop", why: "hourly_cap", rule_ids: [rule.id], loop: [], cap };
  const cooldown = RULE_LIMITS.cooldown_ms[rule.action_type];
  if (rule.last_fired_at && now.getTime() - rule.last_fired_at.getTime() < cooldown)
    return { outcome: "skip", reason: `It fired less than ${cooldown / 1000} s ago (its cooldown); this trigger did nothing.` };
  return { outcome: "fire" };
}

/** Why a rule was stopped, in the user's words: names the rules (`names`: id → name) and the limit. */
export function stopReason(decision: Extract<FiringDecision, { outcome: "stop" }>, ruleId: string, names: ReadonlyMap<string, string>): string {
  const label = (link: string) => {
    const [kind, id] = [link.slice(0, link.indexOf(":")), link.slice(link.indexOf(":") + 1)];
    return kind === "rule" ? `rule "${names.get(id) ?? id}"` : `strategy ${id}`;
  };
  const own = `rule "${names.get(ruleId) ?? ruleId}"`;
  switch (decision.why) {
    case "loop":
      return `Automation loop stopped: ${own} would have fired on a movement its own chain made (${decision.loop.map(label).join(" → ")}). The rules of the loop are in error; change one so it no longer reacts to the other's movements, then enable them again.`;
    case "too_deep":
      return `Automation chain stopped: ${own} would have moved money as hop ${MAX_AUTOMATION_DEPTH + 1} of a chain (${decision.loop.map(label).join(" → ")}); automation may make at most ${MAX_AUTOMATION_DEPTH} hops from your own movement. The rule is in error; enable it again to let it react to your own movements.`;
    case "hourly_cap":
      return `Rule stopped: ${own} fired ${decision.cap} times in the last hour, its hourly cap. The rule is in error; enable it again once you have checked it.`;
  }
}
