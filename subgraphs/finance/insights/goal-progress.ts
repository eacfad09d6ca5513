import { Decimal, money, type Finding } from "./finding.ts";

/**
 * A savings goal as the agents subgraph will keep it (its savings strategies): how much is saved
 * towards how much. The finance subgraph only reads them, through a GoalSource.
 */
export interface SavingsGoal {
  id: string;
  name: string;
  currency: string;
  target_amount: string;
  saved_amount: string;
}

/**
 * Where savings goals come from: the hook for the agents subgraph's savings strategies. Until it
 * keeps goals, `NO_GOALS` answers none and goal_progress finds nothing; then a source that asks
 * the agents peer through federation takes its place in services.ts.
 */
export interface GoalSource {
  goals(userId: string): Promise<SavingsGoal[]>;
}

export const NO_GOALS: GoalSource = { goals: async () => [] };

/** The shares of a goal (percent) worth telling; the highest one reached is the finding. */
export const GOAL_MILESTONES = [25, 50, 75, 100] as const;

/** `goal_progress`: one finding per goal and milestone reached; a later milestone supersedes an earlier one. */
export function goalProgress(goals: SavingsGoal[]): Finding[] {
  const findings: Finding[] = [];
  for (const goal of goals) {
    const target = new Decimal(goal.target_amount);
    if (target.lte(0)) continue;
    const percent = new Decimal(goal.saved_amount).div(target).times(100);
    const milestone = [...GOAL_MILESTONES].reverse().find((share) => percent.gte(share));
    if (milestone === undefined) continue;
    findings.push({
      type: "goal_progress",
      fingerprint: `goal_progress:${goal.id}:${milestone}`,
      severity: "info",
      title: milestone >= 100 ? `${goal.name}: goal reached` : `${goal.name}: ${milestone}% saved`,
      description: `You have saved ${money(goal.saved_amount, goal.currency)} of ${money(goal.target_amount, goal.currency)} for ${goal.name} (${percent.toDecimalPlaces(0, Decimal.ROUND_DOWN).toFixed()}%).`,
      data: { goal_id: goal.id, name: goal.name, currency: goal.currency, target_amount: goal.target_amount, saved_amount: goal.saved_amount, milestone },
    });
  }
  return findings;
}
