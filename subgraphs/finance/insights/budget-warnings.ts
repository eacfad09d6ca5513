import type { BudgetView } from "../budgets/budget-view.ts";
import { categoryWord, money, type Finding } from "./finding.ts";

/** The shares of a budget (percent) that raise a warning; the highest one reached is the finding. */
export const BUDGET_THRESHOLDS = [80, 100] as const;

const DAY_MS = 86_400_000;

/**
 * `budget_warning`: a budget whose current period has reached 80% or 100% of its amount. One
 * finding per budget, period and threshold; reaching 100% supersedes the 80% finding.
 */
export function budgetWarnings(budgets: BudgetView[], now: Date): Finding[] {
  const findings: Finding[] = [];
  for (const budget of budgets) {
    const threshold = [...BUDGET_THRESHOLDS].reverse().find((share) => budget.percentage_used >= share);
    if (threshold === undefined) continue;
    const daysLeft = Math.max(0, Math.ceil((budget.period_end.getTime() - now.getTime()) / DAY_MS));
    const what = `${budget.period} ${categoryWord(budget.category)} budget`;
    const limit = money(budget.amount, budget.currency);
    findings.push({
      type: "budget_warning",
      fingerprint: `budget_warning:${budget.id}:${budget.period_start.toISOString()}:${threshold}`,
      severity: threshold >= 100 ? "critical" : "warning",
      title: threshold >= 100 ? `${categoryWord(budget.category, true)} budget exceeded` : `${categoryWord(budget.category, true)} budget ${threshold}% used`,
      description:
        `You have spent ${money(budget.spent, budget.currency)} of your ${limit} ${what} (${budget.percentage_used}%), ` +
        (budget.remaining.startsWith("-") ? `${money(budget.remaining.slice(1), budget.currency)} over it` : `${money(budget.remaining, budget.currency)} left`) +
        `, with ${daysLeft} day${daysLeft === 1 ? "" : "s"} to go in this period.`,
      data: {
        budget_id: budget.id,
        category: budget.category,
        period: budget.period,
        period_start: budget.period_start.getTime(),
        period_end: budget.period_end.getTime(),
        currency: budget.currency,
        amount: budget.amount,
        spent: budget.spent,
        remaining: budget.remaining,
        percentage_used: budget.percentage_used,
        threshold,
      },
    });
  }
  return findings;
}
