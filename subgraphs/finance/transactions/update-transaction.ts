import { MAX_NOTE_LENGTH } from "../../../lib/contracts/transactions.ts";
import { validationError } from "../../../lib/errors/app-error.ts";
import type { SpendingCategory } from "../../../lib/vocabulary/transactions.ts";
import type { FinanceDb } from "../db.ts";
import { rememberCategory } from "./merchant-category-rules.ts";
import { findOwnTransaction, type TransactionView } from "./transaction-view.ts";
import { publishChange } from "../changes/change-events.ts";

export interface UpdateTransactionOptions {
  user_id: string;
  transaction_id: string;
  /** absent: unchanged; null: cleared */
  category?: SpendingCategory | null;
  note?: string | null;
}

/**
 * Sets the user's category and/or note on their transaction (another user's: TXN-404-001). A
 * category given to a transaction with a merchant is remembered for that merchant's later
 * transactions (null forgets it); the row and the rule change in one database transaction.
 */
export async function updateTransaction(db: FinanceDb, options: UpdateTransactionOptions): Promise<TransactionView> {
  const setsCategory = options.category !== undefined;
  const setsNote = options.note !== undefined;
  if (!setsCategory && !setsNote) throw validationError([], "Give category, note or both", {}, "missing");
  const category = options.category ?? null;
  if (typeof options.note === "string" && options.note.length > MAX_NOTE_LENGTH)
    throw validationError(["note"], `String should have at most ${MAX_NOTE_LENGTH} characters`, options.note, "string_too_long", { max_length: MAX_NOTE_LENGTH });
  return db.$transaction(async (tx) => {
    const current = await findOwnTransaction(tx, options.user_id, options.transaction_id);
    await tx.transaction.update({
      where: { id: current.id },
      data: { ...(setsCategory && { category }), ...(setsNote && { note: options.note }), updated_at: new Date() },
    });
    if (setsCategory && current.merchant?.name) await rememberCategory(tx, options.user_id, current.merchant.name, category);
    if (setsCategory) await publishChange(tx, options.user_id);
    return findOwnTransaction(tx, options.user_id, options.transaction_id);
  });
}
