import type { AutomationCause } from "../../../lib/automation-finance.ts";
import type { RuleAction } from "../../../lib/vocabulary/agents.ts";
import { decideReaction, MAX_AUTOMATION_DEPTH, ruleIdsIn, ruleLink } from "../automation/causation.ts";

/** Actions that make movements, and so can start or extend a chain (a strategy_trigger runs a strategy that may move money). */
export const MONEY_MOVING_ACTIONS: readonly RuleAction[] = ["transfer", "strategy_trigger"];

/**
 * The bounds on rules (issue 26: nothing automation does may loop or escalate), documented in the
 * README. A notification rule has no cooldown: it moves nothing and starts no chain, and a burst of
 * the user's own transactions should each be told; its hourly cap bounds it. An every-minute
 * time_based rule fires 60 times an hour: within a notification's cap, past a money-moving one's.
 */
export const RULE_LIMITS = {
  /** least time between two firings of one rule; a trigger inside it is recorded `skipped` */
  cooldown_ms: { transfer: 30_000, strategy_trigger: 30_000, notification: 0 } satisfies Record<RuleAction, number>,
  /** firings of one rule in the last hour past which it is stopped (put in `error`) */
  firings_per_hour: { transfer: 30, strategy_trigger: 30, notification: 120 } satisfies Record<RuleAction, number>,
  /** rules a user may hold (RUL-409-001 beyond) */
  rules_per_user: 50,
} as const;

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
