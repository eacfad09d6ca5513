import { appError } from "../../../lib/errors/app-error.ts";
import type { FinanceTx } from "../db.ts";

/**
 * The user's linked bank account with what a ramp needs of its login (BNK-404-001 when it is not
 * theirs or unlinked); a connection that is not `active` cannot move money: RMP-409-003.
 */
export async function requireRampConnection(db: FinanceTx, userId: string, bankAccountId: string) {
  const account = await db.bankAccount.findFirst({ where: { id: bankAccountId, user_id: userId, unlinked_at: null }, include: { connection: true } });
  if (!account) throw appError("BNK-404-001");
  if (account.connection.status !== "active") throw appError("RMP-409-003", `The bank account's connection is ${account.connection.status}; money cannot move through it until it is active again.`);
  return account;
}
