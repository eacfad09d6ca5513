import { lockKey } from "../../../lib/db/advisory-lock.ts";
import type { FinanceTx } from "../db.ts";

/**
 * Serialises every authorization decision and action on one card until the caller's transaction
 * ends (a transaction-scoped advisory lock, as lockSource does for a ledger source), so two
 * concurrent authorizations see each other's spending against the card's limits.
 */
export async function lockCard(tx: FinanceTx, cardId: string): Promise<void> {
  await lockKey(tx, `card-authorizations:${cardId}`);
}
