import { isUniqueViolation } from "../../../lib/db/prisma-errors.ts";
import type { BankConnectionStatus } from "../../../lib/vocabulary/bank-accounts.ts";
import type { FinanceTx } from "../db.ts";
import { applyRampOutcome, type RampOutcome } from "../ramps/apply-ramp-outcome.ts";
import { emitLoginRequired } from "./bank-accounts.ts";
import { nextConnectionStatus, type ConnectionTrigger } from "./connection-status.ts";
import { syncBankConnection, type BankSyncServices } from "./sync-bank-transactions.ts";

/** A verified banking-provider event, as the webhook receiver hands it over. */
export interface BankingEvent {
  event_id: string;
  type: string;
  /** the login (link.*, transactions.available) */
  item_id: string | null;
  /** the provider's ramp id (ramp.*) */
  ramp_id: string | null;
  reason: string | null;
}

export type BankingEventOutcome = { outcome: RampOutcome["outcome"] | "duplicate"; detail: string };

const RAMP_STATUSES: Record<string, "processing" | "completed" | "failed"> = { "ramp.processing": "processing", "ramp.completed": "completed", "ramp.failed": "failed" };
const CONNECTION_TRIGGERS: Record<string, ConnectionTrigger> = { "link.completed": "link_completed", "link.failed": "link_failed", "link.reauth_required": "reauth_required" };

/**
 * Applies a banking-provider event exactly once. The event id is recorded (banking_provider_events)
 * in the same database transaction as the effect, and inserted first: a concurrent delivery of the
 * same id waits on it and then finds it taken (duplicate), so nothing is applied twice. A failure
 * rolls both back and is thrown: the receiver answers 5xx, the provider retries. Moves the state
 * tables refuse are recorded as ignored; unknown logins, ramps and event types as no-ops.
 * `transactions.available` syncs first (each page lands once however many syncs run) and records
 * the event after.
 */
export async function applyBankingEvent(services: BankSyncServices, event: BankingEvent): Promise<BankingEventOutcome> {
  if (await services.db.bankingProviderEvent.findUnique({ where: { event_id: event.event_id }, select: { event_id: true } })) return { outcome: "duplicate", detail: "already received" };

  if (event.type === "transactions.available") {
    const connection = event.item_id === null ? null : await services.db.bankConnection.findUnique({ where: { provider_item_id: event.item_id }, select: { id: true, status: true } });
    let result: RampOutcome;
    if (!connection) result = { outcome: "no_op", detail: "unknown login" };
    else if (connection.status === "revoked") result = { outcome: "ignored", detail: "the login was unlinked" };
    else {
      const synced = await syncBankConnection(services, connection.id);
      result = { outcome: "applied", detail: `synced: ${synced.added} added, ${synced.modified} modified, ${synced.removed} removed, ${synced.ignored} ignored` };
    }
    return record(services, event, () => Promise.resolve(result));
  }
  return record(services, event, (tx) => {
    const trigger = CONNECTION_TRIGGERS[event.type];
    if (trigger) return applyConnectionEvent(tx, event.item_id, trigger);
    const rampStatus = RAMP_STATUSES[event.type];
    if (rampStatus && event.ramp_id !== null) return applyRampOutcome(tx, event.ramp_id, rampStatus, event.reason);
    return Promise.resolve({ outcome: "no_op", detail: "unsupported event type" });
  });
}

async function record(services: BankSyncServices, event: BankingEvent, effect: (tx: FinanceTx) => Promise<RampOutcome>): Promise<BankingEventOutcome> {
  try {
    return await services.db.$transaction(async (tx) => {
      await tx.bankingProviderEvent.create({ data: { event_id: event.event_id, type: event.type.slice(0, 255), outcome: "received" } });
      const result = await effect(tx);
      await tx.bankingProviderEvent.update({ where: { event_id: event.event_id }, data: { outcome: result.outcome, detail: result.detail } });
      if (result.outcome === "ignored") services.logger.warn({ event_id: event.event_id, type: event.type, detail: result.detail }, "banking event: illegal move recorded, not applied");
      return result;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { outcome: "duplicate", detail: "already received" };
    throw error;
  }
}

async function applyConnectionEvent(tx: FinanceTx, itemId: string | null, trigger: ConnectionTrigger): Promise<RampOutcome> {
  const connection = itemId === null ? null : await tx.bankConnection.findUnique({ where: { provider_item_id: itemId }, select: { id: true, status: true } });
  if (!connection) return { outcome: "no_op", detail: "unknown login" };
  const from = connection.status as BankConnectionStatus;
  const to = nextConnectionStatus(from, trigger);
  if (to === null) return { outcome: "ignored", detail: `the connection is ${from}; ${trigger} does not move it` };
  // matched on the status read: an unlink meanwhile (revoked is final) leaves it alone
  const { count } = await tx.bankConnection.updateMany({ where: { id: connection.id, status: from }, data: { status: to } });
  if (count === 0) return { outcome: "ignored", detail: `the connection changed while ${trigger} was applied` };
  if (to === "reauth_required") await emitLoginRequired(tx, connection.id, from);
  return { outcome: "applied", detail: `connection ${connection.id}: ${from} → ${to}` };
}
