import type { AutomationCause } from "../../../lib/automation-finance.ts";
import { MAX_AUTOMATION_DEPTH } from "../../../lib/contracts/rules.ts";

/** An automation's link in a chain: the rule or the user strategy. */
export const ruleLink = (ruleId: string) => `rule:${ruleId}`;
export const strategyLink = (userStrategyId: string) => `strategy:${userStrategyId}`;

/** The rule ids among a chain's links (ruleLink's inverse), in order. */
export function ruleIdsIn(links: readonly string[]): string[] {
  return links.filter((link) => link.startsWith(ruleLink(""))).map((link) => link.slice(ruleLink("").length));
}

export type ReactionDecision =
  | { allowed: true }
  /** the automation is in the movement's own chain: `loop` is the chain from it to the end */
  | { allowed: false; why: "own_chain"; loop: string[] }
  /** what it would make lies past MAX_AUTOMATION_DEPTH hops */
  | { allowed: false; why: "too_deep"; depth: number };

/**
 * Whether an automation (`link`) may react to a movement with `cause` (null or absent: the user's
 * own): never to one its own chain caused (a movement made by it, or by anything it caused: it is
 * in the chain), and, when it moves money, only while its own movement stays within
 * MAX_AUTOMATION_DEPTH hops.
 */
export function decideReaction(cause: AutomationCause | null | undefined, link: string, movesMoney: boolean): ReactionDecision {
  if (!cause) return { allowed: true };
  const at = cause.chain.indexOf(link);
  if (at >= 0) return { allowed: false, why: "own_chain", loop: cause.chain.slice(at) };
  if (movesMoney && cause.depth + 1 > MAX_AUTOMATION_DEPTH) return { allowed: false, why: "too_deep", depth: cause.depth + 1 };
  return { allowed: true };
}

/**
 * The cause of what automations (`links`: a rule, or a rule and the strategy it runs) do on an
 * event: one hop deeper than the event's movement, its chain extended, its root kept (the event's
 * own key when the user's movement, the clock or a price started it).
 */
export function causeOfReaction(upstream: AutomationCause | null | undefined, eventKey: string, links: readonly string[], firingId: string): AutomationCause {
  return { root: upstream?.root ?? eventKey, chain: [...(upstream?.chain ?? []), ...links], depth: (upstream?.depth ?? 0) + 1, firing_id: firingId };
}
