import { appError } from "../../../lib/errors/app-error.ts";
import type { BudgetPeriod } from "../../../lib/vocabulary/budgets.ts";
import type { SpendingCategory } from "../../../lib/vocabulary/transactions.ts";
import { Prisma, type FinanceTx } from "../db.ts";
import type { Budget as BudgetRow } from "../generated/prisma/client.ts";
import type { Budget } from "../types/budget.ts";
import { currentPeriod, type PeriodBounds } from "./budget-period.ts";
import { userTimeZone } from "./budget-settings.ts";

/** A budget as the API shows it (the GraphQL Budget): the stored limit and the current period's figures. */
export type BudgetView = Budget;

interface Figures {
  spent: string;
  remaining: string;
  percentage_used: string;
}

/**
 * The period's spending, in SQL and in NUMERIC throughout: completed, pending and processing
 * `out` movements of the budget's category with `timestamp` in [start, end). A USD budget counts
 * every movement by its `amount_usd` (a USD movement by its amount; one without a USD value is
 * left out); a budget in any other currency or asset counts only movements in that currency or
 * asset, by their amount, since no exchange rate is stored with them.
 */
async function budgetFigures(tx: FinanceTx, budget: BudgetRow, bounds: PeriodBounds): Promise<Figures> {
  const value =
    budget.currency === "USD"
      ? Prisma.sql`CASE WHEN "currency" = 'USD' THEN "amount" ELSE "amount_usd" END`
      : Prisma.sql`CASE WHEN "currency" = ${budget.currency} OR "asset_symbol" = ${budget.currency} THEN "amount" END`;
  const [row] = await tx.$queryRaw<Figures[]>`
    SELECT trim_scale(spent)::text AS spent,
      trim_scale(${budget.amount}::numeric - spent)::text AS remaining,
      trim_scale(round(spent * 100 / ${budget.amount}::numeric, 2))::text AS percentage_used
    FROM (
      SELECT coalesce(sum(${value}), 0) AS spent
      FROM "finance"."transactions"
      WHERE "user_id" = ${budget.user_id} AND "category" = ${budget.category} AND "direction" = 'out'
        AND "status" IN ('pending', 'processing', 'completed')
        AND "timestamp" >= ${bounds.start} AND "timestamp" < ${bounds.end}
    ) sums`;
  return row!;
}

/** The view of a stored budget at `now`, its period in `timeZone`. */
export async function budgetView(tx: FinanceTx, budget: BudgetRow, timeZone: string, now: Date = new Date()): Promise<BudgetView> {
  const bounds = currentPeriod({ period: budget.period as BudgetPeriod, period_start: budget.period_start, period_end: budget.period_end }, now, timeZone);
  const figures = await budgetFigures(tx, budget, bounds);
  return {
    id: budget.id,
    category: budget.category as SpendingCategory,
    // toFixed(): plain notation, trailing zeros dropped
    amount: budget.amount.toFixed(),
    currency: budget.currency,
    period: budget.period as BudgetPeriod,
    period_start: bounds.start,
    period_end: bounds.end,
    time_zone: timeZone,
    spent: figures.spent,
    remaining: figures.remaining,
    percentage_used: Number(figures.percentage_used),
    created_at: budget.created_at,
    updated_at: budget.updated_at,
  };
}

/** The user's budget row, or BGT-404-001: other users' budgets do not exist. */
export async function findOwnBudgetRow(tx: FinanceTx, userId: string, id: string): Promise<BudgetRow> {
  const row = await tx.budget.findFirst({ where: { id, user_id: userId } });
  if (!row) throw appError("BGT-404-001", `Budget ${id} was not found for this user.`);
  return row;
}

/** The user's budget with its current figures, or BGT-404-001. */
export async function getBudget(tx: FinanceTx, options: { user_id: string; budget_id: string; now?: Date }): Promise<BudgetView> {
  const row = await findOwnBudgetRow(tx, options.user_id, options.budget_id);
  return budgetView(tx, row, await userTimeZone(tx, options.user_id), options.now);
}

/** Every budget of the user, oldest first, each with its current figures. */
export async function listBudgets(tx: FinanceTx, options: { user_id: string; now?: Date }): Promise<BudgetView[]> {
  const rows = await tx.budget.findMany({ where: { user_id: options.user_id }, orderBy: [{ created_at: "asc" }, { id: "asc" }] });
  const timeZone = await userTimeZone(tx, options.user_id);
  return Promise.all(rows.map((row) => budgetView(tx, row, timeZone, options.now)));
}
