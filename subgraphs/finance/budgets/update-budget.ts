import { appError } from "../../../lib/errors/app-error.ts";
import { isUniqueViolation } from "../../../lib/db/prisma-errors.ts";
import type { FinanceDb } from "../db.ts";
import type { BudgetPeriod } from "../../../lib/vocabulary/budgets.ts";
import type { SpendingCategory } from "../../../lib/vocabulary/transactions.ts";
import type { UpdateBudgetInput } from "../types/budget.ts";
import { checkBudgetFields } from "./budget-input.ts";
import { budgetView, findOwnBudgetRow, type BudgetView } from "./budget-view.ts";
import { userTimeZone } from "./budget-settings.ts";
import { publishChange } from "../changes/change-events.ts";

export type UpdateBudgetOptions = UpdateBudgetInput & { user_id: string; budget_id: string };

/**
 * Changes the fields given (absent or null: unchanged) and checks the result as a whole: moving
 * a custom budget to weekly or monthly drops its bounds; moving to custom needs both. Another
 * budget already holding the new category and period: BGT-409-001. The budget and its change
 * event are written in one database transaction.
 */
export async function updateBudget(db: FinanceDb, options: UpdateBudgetOptions): Promise<BudgetView> {
  return db.$transaction(async (tx) => {
    const current = await findOwnBudgetRow(tx, options.user_id, options.budget_id);
    const period = options.period ?? (current.period as BudgetPeriod);
    const keepBounds = period === "custom" && current.period === "custom";
    const fields = await checkBudgetFields(tx, {
      // stored values were checked when written
      category: options.category ?? (current.category as SpendingCategory),
      // an amount kept as stored is re-checked against a new currency's decimals
      amount: options.amount ?? current.amount.toFixed(),
      currency: options.currency ?? current.currency,
      period,
      period_start: options.period_start ?? (keepBounds ? current.period_start : null),
      period_end: options.period_end ?? (keepBounds ? current.period_end : null),
    });
    try {
      const row = await tx.budget.update({ where: { id: current.id }, data: { ...fields, updated_at: new Date() } });
      await publishChange(tx, options.user_id);
      return budgetView(tx, row, await userTimeZone(tx, options.user_id));
    } catch (error) {
      if (isUniqueViolation(error)) throw appError("BGT-409-001", `You already have a ${fields.period} ${fields.category} budget; update or delete that one.`);
      throw error;
    }
  });
}
