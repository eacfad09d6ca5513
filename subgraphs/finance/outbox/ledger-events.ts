import type { FinanceDb } from "../db.ts";

/** How long a delivered event is kept (for looking into what automation saw) before it is pruned. */
const DELIVERED_RETENTION_MS = 7 * 86_400_000;

export interface LedgerEventView {
  /** the outbox id, a decimal string (BIGINT) */
  id: string;
  user_id: string;
  kind: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

/** The oldest undelivered outbox events, in order. */
export async function undeliveredLedgerEvents(db: FinanceDb, limit: number): Promise<LedgerEventView[]> {
  const rows = await db.ledgerEvent.findMany({ where: { delivered_at: null }, orderBy: { id: "asc" }, take: limit });
  return rows.map((row) => ({ id: row.id.toString(), user_id: row.user_id, kind: row.kind, payload: row.payload as Record<string, unknown>, created_at: row.created_at }));
}

/** Marks events delivered (the consumer recorded them) and prunes those delivered long ago; answers how many it marked. */
export async function acknowledgeLedgerEvents(db: FinanceDb, ids: readonly string[], now = new Date()): Promise<number> {
  const { count } = await db.ledgerEvent.updateMany({ where: { id: { in: ids.filter((id) => /^\d{1,19}$/.test(id)).map((id) => BigInt(id)) }, delivered_at: null }, data: { delivered_at: now } });
  await db.ledgerEvent.deleteMany({ where: { delivered_at: { lt: new Date(now.getTime() - DELIVERED_RETENTION_MS) } } });
  return count;
}
