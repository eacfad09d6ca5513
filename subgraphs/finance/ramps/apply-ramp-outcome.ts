import type { TransactionStatus } from "../../../lib/vocabulary/transactions.ts";
import type { FinanceTx } from "../db.ts";
import { emitEvent } from "../outbox/outgoing-events.ts";
import { walkTransactionStatus } from "../transactions/move-transaction-status.ts";
import { getRamp } from "./ramp-queries.ts";

export type RampOutcome = { outcome: "applied" | "ignored" | "no_op"; detail: string };

/**
 * The provider's report that a ramp is under way, completed or failed (its webhook), in the
 * caller's database transaction: the ramp's ledger transaction walks to `processing`, `completed`
 * or `failed` through spec 3.4's table, and its ramp.status_changed event is written. A report the table does not allow (a failed ramp reported
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
  const view = await getRamp(tx, ramp.user_id, ramp.id);
  const { id, quote_id, direction, status, transaction_id, bank_account_id, wallet_id, chain_id, asset, asset_amount, currency, fiat_amount, fee, failure_reason } = view;
  await emitEvent(tx, {
    type: "ramp.status_changed",
    user_id: ramp.user_id,
    resource: { type: "ramp", id },
    data: { id, user_id: ramp.user_id, quote_id, direction, status, previous_status: from, transaction_id, bank_account_id, wallet_id, chain_id, asset, asset_amount, currency, fiat_amount, fee, failure_reason, updated_at: view.updated_at.getTime() },
  });
  return { outcome: "applied", detail: `ramp ${ramp.id}: ${from} → ${to}` };
}
