import type { FinanceDb } from "../db.ts";
import { findOwnBudgetRow } from "./budget-view.ts";
import { publishChange } from "../changes/change-events.ts";

/** Deletes the user's budget (BGT-404-001 if it is not theirs), with its change event in one database transaction; answers its id. */
export async function deleteBudget(db: FinanceDb, options: { user_id: string; budget_id: string }): Promise<string> {
  return db.$transaction(async (tx) => {
    const row = await findOwnBudgetRow(tx, options.user_id, options.budget_id);
    await tx.budget.deleteMany({ where: { id: row.id, user_id: options.user_id } });
    await publishChange(tx, options.user_id);
    return row.id;
  });
}
