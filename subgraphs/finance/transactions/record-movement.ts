import { appError } from "../../../lib/errors/app-error.ts";
import { newId } from "../../../lib/ids.ts";
import {
  SPENDING_CATEGORIES,
  TRANSACTION_DIRECTIONS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  type TransactionDirection,
  type TransactionStatus,
  type TransactionType,
} from "../../../lib/vocabulary/transactions.ts";
import { requireOneOf } from "../../../lib/vocabulary/values.ts";
import type { AutomationCause } from "../../../lib/automation-finance.ts";
import type { FinanceTx, Prisma } from "../db.ts";
import { amountBeyondBound, parseAmount, withinAmountBound } from "./amount.ts";
import { availableAfter } from "./balances.ts";
import { categoryOfMcc } from "./mcc-category.ts";
import { rememberedCategory } from "./merchant-category-rules.ts";
import { lockSource, sourceColumns, type LedgerSource } from "./ledger-source.ts";
import { loadTransaction, type TransactionView } from "./transaction-view.ts";
import { pathFromInitial } from "./transaction-status.ts";
import { usdValue } from "./usd-value.ts";
import { publishChange } from "../changes/change-events.ts";
import { emitEvent } from "../outbox/outgoing-events.ts";
import { transactionEventData } from "./transaction-events.ts";

/** A crypto asset, or `currency` for fiat; `decimals` bounds an amount's fraction digits. */
export type MovementUnit = { asset_symbol: string; decimals: number } | { currency: string; decimals: number };

/** The ledger's unit columns for `unit`: exactly one of asset_symbol and currency is set. */
export function unitColumns(unit: MovementUnit): { asset_symbol: string | null; currency: string | null } {
  return "asset_symbol" in unit ? { asset_symbol: unit.asset_symbol, currency: null } : { asset_symbol: null, currency: unit.currency };
}

export interface MovementInput {
  user_id: string;
  type: TransactionType;
  direction: TransactionDirection;
  /** positive decimal string in asset units */
  amount: string;
  unit: MovementUnit;
  source: LedgerSource;
  /** the card that spent, for a card's purchases and refunds: `source` stays the funding source whose balance moves */
  card_id?: string | null;
  /** where the movement stands once recorded: pending (default), or further along spec 3.4's path */
  status?: TransactionStatus;
  /** "allow" only for what already happened elsewhere (a bank's own report) or a source that may go below zero (a credit line); wallets never do */
  overdraft?: "refuse" | "allow";
  /** the USD value; when absent, amount × `usd_price` (or null without a price) */
  amount_usd?: string | null;
  /** USD per whole unit at the time (usdPriceNow): amount_usd is computed from it in SQL */
  usd_price?: string | null;
  /**
   * A USD value beyond MAX_AMOUNT_INTEGER_DIGITS: "refuse" (default) is 422 at amount;
   * "unpriced" records it without one, for a report of what already happened elsewhere (a bank's)
   */
  usd_beyond_bound?: "refuse" | "unpriced";
  /** absent: the category the user gave this merchant before (merchant-category-rules.ts), else the merchant's MCC's */
  category?: string | null;
  description?: string | null;
  merchant?: { name: string | null; mcc: string | null } | null;
  counterparty?: string | null;
  chain_id?: number | null;
  tx_hash?: string | null;
  /** a synced bank transaction's id at the banking provider (unique per bank account) */
  provider_transaction_id?: string | null;
  /** when it happened; default now */
  timestamp?: Date;
  /** why automation made it (its ledger events carry it); absent for the user's own movement */
  automation_cause?: AutomationCause | null;
}

/**
 * Records one movement in the ledger, in the caller's database transaction (which also holds the
 * Idempotency-Key row of the request, when there is one). The source is locked first, so an
 * outflow that would overdraw it is refused (TXN-409-002) even against concurrent outflows; the
 * row and its status_history (pending, then each move to `status`) are written together, with
 * its outgoing transaction.created event.
 */
export async function recordMovement(tx: FinanceTx, input: MovementInput): Promise<TransactionView> {
  const type = requireOneOf(TRANSACTION_TYPES, input.type, ["type"]);
  const direction = requireOneOf(TRANSACTION_DIRECTIONS, input.direction, ["direction"]);
  const status = requireOneOf(TRANSACTION_STATUSES, input.status ?? "pending", ["status"]);
  const category = input.category == null ? null : requireOneOf(SPENDING_CATEGORIES, input.category, ["category"]);
  const amount = parseAmount(input.amount, input.unit.decimals, ["amount"]);
  const unit = unitColumns(input.unit);

  await lockSource(tx, input.source);
  if (direction === "out" && status !== "failed" && (input.overdraft ?? "refuse") === "refuse") {
    // a bank account is checked against the bank's balance, not our sum of its rows (availableAfter)
    const left = await availableAfter(tx, input.source, unit, amount);
    if (left === null || left.startsWith("-"))
      throw appError("TXN-409-002", `The movement of ${amount} ${unit.asset_symbol ?? unit.currency} would overdraw its source (${left ?? "no balance known"} after it).`);
  }

  let amountUsd = input.amount_usd ?? (input.usd_price == null ? null : await usdValue(tx, amount, input.usd_price));
  if (amountUsd !== null && !withinAmountBound(amountUsd)) {
    if (input.usd_beyond_bound !== "unpriced") throw amountBeyondBound("USD value (amount × price)", ["amount"], input.amount);
    amountUsd = null;
  }
  // the user's own word for the merchant outranks what its MCC says
  const ruled = category ?? (await rememberedCategory(tx, input.user_id, input.merchant?.name)) ?? categoryOfMcc(input.merchant?.mcc);
  const now = new Date();
  const id = newId("txn", now.getTime());
  const path = pathFromInitial(status);
  await tx.transaction.create({
    data: {
      id,
      user_id: input.user_id,
      type,
      status,
      direction,
      amount,
      ...unit,
      decimals: input.unit.decimals,
      amount_usd: amountUsd,
      category: ruled,
      description: input.description ?? null,
      merchant_name: input.merchant?.name ?? null,
      merchant_mcc: input.merchant?.mcc ?? null,
      ...sourceColumns(input.source),
      ...(input.card_id != null && { card_id: input.card_id }),
      counterparty: input.counterparty ?? null,
      chain_id: input.chain_id ?? null,
      tx_hash: input.tx_hash ?? null,
      provider_transaction_id: input.provider_transaction_id ?? null,
      ...(input.automation_cause && { automation_cause: input.automation_cause as unknown as Prisma.InputJsonValue }),
      timestamp: input.timestamp ?? now,
      created_at: now,
      updated_at: now,
      status_history: { create: path.map((to, i) => ({ from: i === 0 ? null : path[i - 1]!, to, changed_at: now })) },
    },
  });
  await publishChange(tx, input.user_id, now);
  const view = (await loadTransaction(tx, id))!;
  await emitEvent(tx, { type: "transaction.created", user_id: input.user_id, resource: { type: "transaction", id }, data: transactionEventData(input.user_id, view) });
  return view;
}
