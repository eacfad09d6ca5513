import type { SpendingCategory } from "../../../lib/vocabulary/transactions.ts";
import type { FinanceTx } from "../db.ts";

/** A merchant as rules know it: its name trimmed, in lower case ("Cafe Nero " and "CAFE NERO" are one merchant). */
export function merchantKey(name: string): string {
  return name.trim().toLowerCase();
}

/** The category the user last gave a transaction of this merchant, if any. */
export async function rememberedCategory(tx: FinanceTx, userId: string, merchantName: string | null | undefined): Promise<SpendingCategory | null> {
  if (!merchantName?.trim()) return null;
  const rule = await tx.merchantCategoryRule.findUnique({ where: { user_id_merchant_key: { user_id: userId, merchant_key: merchantKey(merchantName) } }, select: { category: true } });
  return (rule?.category as SpendingCategory | undefined) ?? null;
}

/** Remembers `category` for the merchant's later transactions; null forgets the merchant's rule. */
export async function rememberCategory(tx: FinanceTx, userId: string, merchantName: string, category: SpendingCategory | null): Promise<void> {
  const key = { user_id: userId, merchant_key: merchantKey(merchantName) };
  if (category === null) await tx.merchantCategoryRule.deleteMany({ where: key });
  else await tx.merchantCategoryRule.upsert({ where: { user_id_merchant_key: key }, create: { ...key, category }, update: { category } });
}
