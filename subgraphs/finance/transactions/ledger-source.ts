import type { LedgerSourceKind } from "../../../lib/vocabulary/transactions.ts";
import { Prisma, type FinanceTx } from "../db.ts";
import { lockKey } from "../../../lib/db/advisory-lock.ts";

/** What a movement is booked against: one wallet (users subgraph id), card or bank account of the user. */
export type LedgerSource = { kind: "wallet"; id: number } | { kind: "card"; id: string } | { kind: "bank_account"; id: string } | { kind: "external_account"; id: string };

/** The transaction columns naming `source` (exactly one is set). */
export function sourceColumns(source: LedgerSource): { wallet_id: number | null; card_id: string | null; bank_account_id: string | null; external_account_id: string | null } {
  return {
    wallet_id: source.kind === "wallet" ? source.id : null,
    card_id: source.kind === "card" ? source.id : null,
    bank_account_id: source.kind === "bank_account" ? source.id : null,
    external_account_id: source.kind === "external_account" ? source.id : null,
  };
}

const COLUMN: Record<LedgerSourceKind, string> = { wallet: "wallet_id", card: "card_id", bank_account: "bank_account_id", external_account: "external_account_id" };

/** `"<column>" = <id>` for raw ledger queries; the column name comes from the fixed table above. */
export function sourceCondition(source: LedgerSource): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(`"${COLUMN[source.kind]}"`)} = ${source.id}`;
}

/**
 * Serialises every write against one source until the caller's transaction ends (a transaction-
 * scoped advisory lock: the source's row may live in another subgraph's schema), so two
 * concurrent movements cannot both spend the same balance.
 */
export async function lockSource(tx: FinanceTx, source: LedgerSource): Promise<void> {
  await lockKey(tx, `ledger:${source.kind}:${source.id}`);
}
