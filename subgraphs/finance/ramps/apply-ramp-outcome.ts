import type { TransactionStatus } from "../../../lib/vocabulary/transactions.ts";
import type { FinanceTx } from "../db.ts";
import { walkTransactionStatus } from "../transactions/move-transaction-status.ts";

export type RampOutcome = { outcome: "applied" | "ignored" | "no_op"; detail: string };

/**
 * The provider's report that a ramp is under way, completed or failed (its webhook), in the
 * caller's database transaction: the ramp's ledger transaction walks to `processing`, `completed`
 * or `failed` through spec 3.4's table. A report the table does not allow (a failed ramp reported
 * completed, a second outcome, processing again) is ignored, never applied; an unknown ramp is a no-op.
 */
export async function applyRampOutcome(tx: FinanceTx, providerRampId: string, to: "processing" | "completed" | "failed", reason: string | null): Promise<RampOutcome> {
  const ramp = await tx.ramp.findUnique({ where: { provider_ramp_id: providerRampId } });
  if (!ramp) return { outcome: "no_op", detail: "unknown ramp" };
  const row = await tx.transaction.findUniqueOrThrow({ where: { id: ramp.transaction_id }, select: { id: true, user_id: true, status: true } });
  const from = row.status as TransactionStatus;
  if (!(await walkTransactionStatus(tx, { ...row, status: from }, to))) return { outcome: "ignored", detail: `ramp ${ramp.id} is ${from}; it cannot move to ${to}` };
  if (to === "failed") await tx.ramp.update({ where: { id: ramp.id }, data: { failure_reason: reason ?? "failed" } });
  else await tx.ramp.update({ where: { id: ramp.id }, data: { updated_at: new Date() } });
  return { outcome: "applied", detail: `ramp ${ramp.id}: ${from} → ${to}` };
}
