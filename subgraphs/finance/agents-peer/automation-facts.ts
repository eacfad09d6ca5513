import type { LedgerEntry } from "../../../lib/automation-finance.ts";
import type { FinanceDb } from "../db.ts";
import { sourceBalances } from "../transactions/balances.ts";

/**
 * What the agents subgraph's strategies read of a user's money (never the tables: these internal
 * fields). Every amount a decimal string, computed in SQL.
 */

/** What the wallet may still spend of `asset` (completed, less pending and processing outflows); "0" when it never held it. */
export async function walletAvailable(db: FinanceDb, userId: string, walletId: number, asset: string): Promise<string> {
  const owned = await db.transaction.findFirst({ where: { user_id: userId, wallet_id: walletId }, select: { id: true } });
  if (!owned) return "0";
  const balance = (await sourceBalances(db, { kind: "wallet", id: walletId })).find((row) => row.asset_symbol?.toUpperCase() === asset.toUpperCase());
  return balance?.available_balance ?? "0";
}

/** USD spent (direction out, not failed) in `category` from `since` on. */
export async function spendingSince(db: FinanceDb, userId: string, category: string, since: Date): Promise<string> {
  const [row] = await db.$queryRaw<{ total: string }[]>`
    SELECT trim_scale(coalesce(sum("amount_usd"), 0))::text AS total FROM "finance"."transactions"
    WHERE "user_id" = ${userId} AND "direction" = 'out' AND "status" <> 'failed' AND "category" = ${category} AND "timestamp" >= ${since}::timestamptz`;
  return row!.total;
}

export interface CardPurchaseFact {
  id: string;
  amount: string;
  /** the stablecoin or currency it was paid in */
  unit: string;
  wallet_id: number | null;
  created_at: Date;
}

/** The user's card purchases recorded in (after, until] (not failed), oldest first, at most `limit`: a window a repeated run reads the same. */
export async function cardPurchasesAfter(db: FinanceDb, userId: string, window: { after: Date; until: Date }, limit: number): Promise<CardPurchaseFact[]> {
  const rows = await db.transaction.findMany({
    where: { user_id: userId, type: "card_purchase", status: { not: "failed" }, created_at: { gt: window.after, lte: window.until } },
    orderBy: [{ created_at: "asc" }, { id: "asc" }],
    take: limit,
    select: { id: true, amount: true, asset_symbol: true, currency: true, wallet_id: true, created_at: true },
  });
  return rows.map((row) => ({ id: row.id, amount: row.amount.toFixed(), unit: (row.asset_symbol ?? row.currency)!, wallet_id: row.wallet_id, created_at: row.created_at }));
}

/** A ledger row as an export takes it (the contract's LedgerEntry), its instants still Dates until the Timestamp scalar sends them. */
export type LedgerEntryFact = Omit<LedgerEntry, "timestamp" | "created_at"> & { timestamp: Date; created_at: Date };

/** The user's transactions recorded after `after` (all statuses but failed), oldest first, at most `limit`: what an export takes. */
export async function transactionsAfter(db: FinanceDb, userId: string, after: Date | null, limit: number): Promise<LedgerEntryFact[]> {
  const rows = await db.transaction.findMany({
    where: { user_id: userId, status: { not: "failed" }, ...(after && { created_at: { gt: after } }) },
    orderBy: [{ created_at: "asc" }, { id: "asc" }],
    take: limit,
  });
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    direction: row.direction,
    status: row.status,
    amount: row.amount.toFixed(),
    unit: (row.asset_symbol ?? row.currency)!,
    amount_usd: row.amount_usd?.toFixed() ?? null,
    category: row.category,
    timestamp: row.timestamp,
    created_at: row.created_at,
  }));
}
