import { appError } from "../../../lib/errors/app-error.ts";
import type { RampDirection } from "../../../lib/vocabulary/bank-accounts.ts";
import type { TransactionStatus } from "../../../lib/vocabulary/transactions.ts";
import { Prisma, type FinanceTx } from "../db.ts";
import { rampQuoteView, type RampQuoteView } from "./ramp-quote.ts";

const WITH_QUOTE = { quote: true } as const;
type RampRow = Prisma.RampGetPayload<{ include: typeof WITH_QUOTE }>;

/** A ramp as the API shows it: its quote's terms, and the status of its ledger transaction (spec 3.4). */
export interface RampView extends Omit<RampQuoteView, "id" | "expires_at" | "created_at"> {
  id: string;
  quote_id: string;
  status: TransactionStatus;
  transaction_id: string;
  failure_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

async function views(tx: FinanceTx, rows: RampRow[]): Promise<RampView[]> {
  const statuses = new Map((await tx.transaction.findMany({ where: { id: { in: rows.map((row) => row.transaction_id) } }, select: { id: true, status: true } })).map((row) => [row.id, row.status as TransactionStatus]));
  return rows.map((row) => {
    const { id: quote_id, expires_at: _expires, created_at: _quoted, ...terms } = rampQuoteView(row.quote);
    return { ...terms, id: row.id, quote_id, status: statuses.get(row.transaction_id)!, transaction_id: row.transaction_id, failure_reason: row.failure_reason, created_at: row.created_at, updated_at: row.updated_at };
  });
}

export async function getRamp(tx: FinanceTx, userId: string, id: string): Promise<RampView> {
  const row = await tx.ramp.findFirst({ where: { id, user_id: userId }, include: WITH_QUOTE });
  if (!row) throw appError("RMP-404-002");
  return (await views(tx, [row]))[0]!;
}

/** The user's ramps, newest first, at most `limit`. */
export async function listRamps(tx: FinanceTx, userId: string, filter: { direction?: RampDirection | null; limit: number }): Promise<RampView[]> {
  const rows = await tx.ramp.findMany({
    where: { user_id: userId, ...(filter.direction && { quote: { direction: filter.direction } }) },
    include: WITH_QUOTE,
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: filter.limit,
  });
  return views(tx, rows);
}
