import { Prisma, type FinanceTx } from "../db.ts";
import { bankAvailableAfter } from "../banking/bank-balance.ts";
import { sourceCondition, type LedgerSource } from "./ledger-source.ts";

/** One asset (or fiat currency) of one source, summed from its ledger rows; every figure a decimal string. */
export interface SourceBalance {
  asset_symbol: string | null;
  currency: string | null;
  decimals: number;
  /** completed movements, in asset units: in adds, out subtracts */
  balance: string;
  /** pending and processing movements, in asset units (negative while more is leaving than arriving) */
  pending_balance: string;
  /** what may still be spent: `balance` less pending and processing outflows (incoming money counts once completed) */
  available_balance: string;
  /** `balance` in base units (balance × 10^decimals), as spec 2.10's wallet asset listing shows it */
  balance_base_units: string;
  pending_balance_base_units: string;
}

const SIGNED = Prisma.sql`CASE "direction" WHEN 'in' THEN "amount" ELSE -"amount" END`;

/** The sums of one source's ledger as SQL: NUMERIC all the way, trailing zeros trimmed, text out. */
const SUMS = Prisma.sql`
  coalesce(sum(${SIGNED}) FILTER (WHERE "status" = 'completed'), 0) AS balance,
  coalesce(sum(${SIGNED}) FILTER (WHERE "status" IN ('pending', 'processing')), 0) AS pending_balance,
  coalesce(sum(${SIGNED}) FILTER (WHERE "status" = 'completed' OR ("status" IN ('pending', 'processing') AND "direction" = 'out')), 0) AS available_balance`;

/** The balances of every asset `source` has moved, computed in SQL (never summed as floats). */
export async function sourceBalances(tx: FinanceTx, source: LedgerSource): Promise<SourceBalance[]> {
  return tx.$queryRaw<SourceBalance[]>`
    SELECT asset_symbol, currency, decimals,
      trim_scale(balance)::text AS balance,
      trim_scale(pending_balance)::text AS pending_balance,
      trim_scale(available_balance)::text AS available_balance,
      trim_scale(balance * power(10::numeric, decimals))::text AS balance_base_units,
      trim_scale(pending_balance * power(10::numeric, decimals))::text AS pending_balance_base_units
    FROM (
      SELECT "asset_symbol" AS asset_symbol, "currency" AS currency, max("decimals") AS decimals, ${SUMS}
      FROM "finance"."transactions"
      WHERE ${sourceCondition(source)} AND "status" <> 'failed'
      GROUP BY "asset_symbol", "currency"
    ) sums
    ORDER BY coalesce(asset_symbol, currency)`;
}

/**
 * What an outflow of `amount` would leave available: negative means it would overdraw the source,
 * null that nothing is known to be spendable. A wallet's is its ledger (completed, less pending and
 * processing outflows); a bank account's is the bank's reported balance less our pending outflows
 * (bankAvailableAfter), since its ledger rows are only what we and the bank reported, not its books.
 */
export async function availableAfter(tx: FinanceTx, source: LedgerSource, unit: { asset_symbol: string | null; currency: string | null }, amount: string): Promise<string | null> {
  if (source.kind === "bank_account") return unit.currency === null ? null : bankAvailableAfter(tx, source.id, unit.currency, amount);
  const [row] = await tx.$queryRaw<{ left: string }[]>`
    SELECT trim_scale(coalesce(sum(${SIGNED}) FILTER (WHERE "status" = 'completed' OR ("status" IN ('pending', 'processing') AND "direction" = 'out')), 0) - ${amount}::numeric)::text AS left
    FROM "finance"."transactions"
    WHERE ${sourceCondition(source)}
      AND "asset_symbol" IS NOT DISTINCT FROM ${unit.asset_symbol}::text AND "currency" IS NOT DISTINCT FROM ${unit.currency}::text`;
  return row!.left;
}
