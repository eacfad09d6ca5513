import { appError } from "../../../lib/errors/app-error.ts";
import type { CardAuthorizationStatus } from "../../../lib/vocabulary/cards.ts";
import { Prisma, type FinanceTx } from "../db.ts";
import type { CardAuthorization as AuthorizationRow } from "../generated/prisma/client.ts";
import { fromJsonSnapshot, jsonSnapshot } from "../../../lib/db/with-idempotency.ts";
import { withIdempotency } from "../idempotency/with-idempotency.ts";
import { parseAmount } from "../transactions/amount.ts";
import type { LedgerSource } from "../transactions/ledger-source.ts";
import { moveTransactionStatus } from "../transactions/move-transaction-status.ts";
import { recordMovement } from "../transactions/record-movement.ts";
import { findOwnTransaction, type TransactionView } from "../transactions/transaction-view.ts";
import { usdPriceNow } from "../transactions/usd-value.ts";
import { requireAuthorizationAction, type AuthorizationAction } from "./authorization-rules.ts";
import { requireSandbox } from "../../../lib/sandbox.ts";
import type { SandboxCardServices } from "./authorize-card.ts";
import { authorizationView, findOwnAuthorizationRow, type CardAuthorizationView } from "./card-authorization-view.ts";
import { lockCard } from "./lock-card.ts";
import { CARD_DECIMALS } from "./card-settlement.ts";

interface AuthorizationActionOptions {
  user_id: string;
  authorization_id: string;
  idempotency_key?: string | null;
}

/**
 * Runs `work` on the user's authorization (another user's: CRD-404-002) under its card's lock, read
 * again once the lock is held, after `action` was checked against its status (CRD-409-002 naming
 * it): of two concurrent captures one applies and the other finds it captured. Honours the
 * Idempotency-Key: a retry answers the first response instead of a 409.
 */
async function actOnAuthorization(
  services: SandboxCardServices,
  options: AuthorizationActionOptions,
  action: AuthorizationAction,
  args: Record<string, unknown>,
  work: (tx: FinanceTx, row: AuthorizationRow) => Promise<Prisma.CardAuthorizationUpdateInput>,
): Promise<CardAuthorizationView> {
  requireSandbox(services);
  return withIdempotency<CardAuthorizationView>(
    services.db,
    { user_id: options.user_id, key: options.idempotency_key, operation: `sandbox_${action}_card_authorization`, args: { authorization_id: options.authorization_id, ...args }, snapshot: jsonSnapshot, restore: fromJsonSnapshot },
    async (tx) => {
      const found = await findOwnAuthorizationRow(tx, options.user_id, options.authorization_id);
      await lockCard(tx, found.card_id);
      const row = await findOwnAuthorizationRow(tx, options.user_id, options.authorization_id);
      requireAuthorizationAction(row.status as CardAuthorizationStatus, action);
      const data = await work(tx, row);
      return authorizationView(tx, await tx.cardAuthorization.update({ where: { id: row.id }, data: { ...data, updated_at: new Date() } }));
    },
  );
}

/** Walks the approval's purchase along spec 3.4 (pending → processing → `to`). */
async function settlePurchase(tx: FinanceTx, row: AuthorizationRow, to: "completed" | "failed"): Promise<void> {
  for (const status of ["processing", to] as const) await moveTransactionStatus(tx, { user_id: row.user_id, transaction_id: row.transaction_id!, to: status });
}

/** The merchant takes the money: the purchase completes (pending → processing → completed) and the authorization is `captured`. */
export function captureCardAuthorization(services: SandboxCardServices, options: AuthorizationActionOptions): Promise<CardAuthorizationView> {
  return actOnAuthorization(services, options, "capture", {}, async (tx, row) => {
    await settlePurchase(tx, row, "completed");
    return { status: "captured" };
  });
}

/** The merchant lets a pending authorization go: the purchase fails (pending → processing → failed), freeing the balance and the limits; `reversed`. */
export function reverseCardAuthorization(services: SandboxCardServices, options: AuthorizationActionOptions): Promise<CardAuthorizationView> {
  return actOnAuthorization(services, options, "reverse", {}, async (tx, row) => {
    await settlePurchase(tx, row, "failed");
    return { status: "reversed" };
  });
}

/** Where the purchase's money came from: the refund goes back there, whatever funds the card now. */
function purchaseSource(purchase: TransactionView): LedgerSource {
  return purchase.wallet_id !== null ? { kind: "wallet", id: purchase.wallet_id } : { kind: "bank_account", id: purchase.bank_account_id! };
}

const unitOf = (purchase: TransactionView) => (purchase.asset ? { asset_symbol: purchase.asset.symbol, decimals: purchase.asset.decimals } : { currency: purchase.currency!, decimals: CARD_DECIMALS });

/**
 * The merchant gives money back on a captured authorization: a completed `card_refund` (in) of
 * `amount` (default: all that is left) into the source the purchase debited, naming the card.
 * Partial refunds add up; their total never passes the captured amount (CRD-422-003), and the
 * one that reaches it makes the authorization `refunded`.
 */
export async function refundCardAuthorization(services: SandboxCardServices, options: AuthorizationActionOptions & { amount?: string | null }): Promise<CardAuthorizationView> {
  requireSandbox(services);
  const asked = options.amount == null ? null : parseAmount(options.amount, CARD_DECIMALS, ["amount"]);
  // the price is read before the transaction opens: the purchase says which asset
  const known = await findOwnAuthorizationRow(services.db, options.user_id, options.authorization_id);
  const knownPurchase = known.transaction_id ? await findOwnTransaction(services.db, options.user_id, known.transaction_id) : null;
  const usdPrice = knownPurchase && (await usdPriceNow(services.prices, knownPurchase.asset ? { asset_symbol: knownPurchase.asset.symbol } : { currency: knownPurchase.currency! }));
  return actOnAuthorization(services, options, "refund", { amount: asked }, async (tx, row) => {
    const left = row.amount.minus(row.refunded_amount);
    const amount = asked ?? left.toFixed();
    if (new Prisma.Decimal(amount).greaterThan(left))
      throw appError("CRD-422-003", `At most ${left.toFixed()} ${row.currency} is left to refund of the ${row.amount.toFixed()} captured.`);
    const purchase = await findOwnTransaction(tx, row.user_id, row.transaction_id!);
    const refund = await recordMovement(tx, {
      user_id: row.user_id,
      type: "card_refund",
      direction: "in",
      status: "completed",
      amount,
      unit: unitOf(purchase),
      source: purchaseSource(purchase),
      card_id: row.card_id,
      merchant: purchase.merchant,
      usd_price: usdPrice,
      chain_id: purchase.chain_id,
    });
    const refunded = row.refunded_amount.plus(amount);
    return { refunded_amount: refunded, refund_transaction_ids: { push: refund.id }, status: refunded.equals(row.amount) ? "refunded" : "captured" };
  });
}
