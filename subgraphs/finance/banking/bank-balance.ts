import type { FinanceTx } from "../db.ts";

/**
 * What a bank account would have left to spend after an outflow of `amount` in `currency`: the
 * bank's reported balance, less the pending and processing outflows our ledger books against the
 * account (card purchases, and the bank's own pending debits, it has not posted yet), less `amount`.
 * Completed rows are not summed: the bank keeps the account's books, and its balance already holds
 * what it posted, so the ledger's sum of the account is never its balance. Null when the bank
 * reported no balance or the account is not in `currency`: nothing is known to be spendable.
 * Exact NUMERIC, never a float.
 */
export async function bankAvailableAfter(tx: FinanceTx, bankAccountId: string, currency: string, amount: string): Promise<string | null> {
  const [row] = await tx.$queryRaw<{ left: string | null }[]>`
    SELECT trim_scale(b."balance" - coalesce((
      SELECT sum(t."amount") FROM "finance"."transactions" t
      WHERE t."bank_account_id" = b."id" AND t."currency" = b."currency" AND t."direction" = 'out' AND t."status" IN ('pending', 'processing')
    ), 0) - ${amount}::numeric)::text AS left
    FROM "finance"."bank_accounts" b
    WHERE b."id" = ${bankAccountId} AND b."currency" = ${currency}`;
  return row?.left ?? null;
}
