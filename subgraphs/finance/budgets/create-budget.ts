import { appError } from "../../../lib/errors/app-error.ts";
import { isUniqueViolation } from "../../../lib/db/prisma-errors.ts";
import { newId } from "../../../lib/ids.ts";
import type { FinanceDb } from "../db.ts";
import type { CreateBudgetInput } from "../types/budget.ts";
import { checkBudgetFields } from "./budget-input.ts";
import { budgetView, type BudgetView } from "./budget-view.ts";
import { userTimeZone } from "./budget-settings.ts";
import { publishChange } from "../changes/change-events.ts";

export type CreateBudgetOptions = CreateBudgetInput & { user_id: string };

/**
 * Creates a budget, with its change event in the same database transaction; a second one for the
 * same category and period is BGT-409-001 (the unique index decides races).
 */
export async function createBudget(db: FinanceDb, options: CreateBudgetOptions): Promise<BudgetView> {
  return db.$transaction(async (tx) => {
    const fields = await checkBudgetFields(tx, {
      category: options.category,
      amount: options.amount,
      currency: options.currency ?? "USD",
      period: options.period,
      period_start: options.period_start ?? null,
      period_end: options.period_end ?? null,
    });
    const now = new Date();
    try {
      const row = await tx.budget.create({ data: { id: newId("bgt", now.getTime()), user_id: options.user_id, ...fields, created_at: now, updated_at: now } });
      await publishChange(tx, options.user_id);
      return budgetView(tx, row, await userTimeZone(tx, options.user_id));
    } catch (error) {
      if (isUniqueViolation(error)) throw appError("BGT-409-001", `You already have a ${fields.period} ${fields.category} budget; update or delete it.`);
      throw error;
    }
  });
}
