import { validationError } from "../../../lib/errors/app-error.ts";
import { requireSandbox } from "../../../lib/sandbox.ts";
import { SANDBOX_BACKDATE_DAYS, SANDBOX_PAYMENT_TYPES } from "../../../lib/vocabulary/transactions.ts";
import { requireOneOf } from "../../../lib/vocabulary/values.ts";
import type { FinanceServices } from "../services.ts";
import { withIdempotency } from "../idempotency/with-idempotency.ts";
import { depositAsset } from "./deposit-asset.ts";
import { findOwnedWallet } from "../../../lib/owned-wallet.ts";
import { recordMovement, type MovementInput } from "./record-movement.ts";
import { usdPriceNow } from "./usd-value.ts";
import type { TransactionView } from "./transaction-view.ts";
import { fromJsonSnapshot, jsonSnapshot } from "../../../lib/db/with-idempotency.ts";

type SandboxServices = Pick<FinanceServices, "db" | "users" | "sandbox" | "prices">;

interface SandboxMovementOptions {
  user_id: string;
  wallet_id: number;
  asset: string;
  amount: string;
  description?: string | null;
  idempotency_key?: string | null;
  trace_id: string;
}

export type SandboxDepositOptions = SandboxMovementOptions;

const CLOCK_SKEW_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

export interface SandboxPaymentOptions extends SandboxMovementOptions {
  type?: string | null;
  merchant?: { name: string; mcc?: string | null } | null;
  category?: string | null;
  counterparty?: string | null;
  timestamp?: Date | null;
}

/**
 * A completed movement on the user's wallet, booked as a sandbox helper: sandbox mode only (else
 * GEN-404-001, as if the route did not exist); the wallet must be the caller's (asked of the users
 * subgraph: WAL-404-001), the asset in the catalogue on the wallet's chain (TXN-422-002) and the
 * amount within its decimals; amount_usd is at the asset's price of the moment. Honours the
 * Idempotency-Key, keyed by `operation` and the request's arguments.
 */
async function sandboxMovement(
  services: SandboxServices,
  options: SandboxMovementOptions,
  request: { operation: string; args: Record<string, unknown> },
  movement: Pick<MovementInput, "type" | "direction"> & Partial<MovementInput>,
): Promise<TransactionView> {
  requireSandbox(services);
  const wallet = await findOwnedWallet(services.users, { user_id: options.user_id, wallet_id: options.wallet_id }, options.trace_id);
  const asset = await depositAsset(services.db, options.asset, wallet.chain_id);
  const usdPrice = await usdPriceNow(services.prices, { asset_symbol: asset.symbol });
  const args = { wallet_id: options.wallet_id, asset: options.asset, amount: options.amount, description: options.description ?? null, ...request.args };
  return withIdempotency<TransactionView>(
    services.db,
    { user_id: options.user_id, key: options.idempotency_key, operation: request.operation, args, snapshot: jsonSnapshot, restore: fromJsonSnapshot<TransactionView> },
    (tx) =>
      recordMovement(tx, {
        user_id: options.user_id,
        status: "completed",
        amount: options.amount,
        unit: { asset_symbol: asset.symbol, decimals: asset.decimals },
        usd_price: usdPrice,
        source: { kind: "wallet", id: wallet.id },
        chain_id: wallet.chain_id,
        description: options.description ?? null,
        ...movement,
      }),
  );
}

/** Credits the user's wallet with a completed `deposit` (direction in), so balances and the feed can be tried without a chain. */
export function sandboxDeposit(services: SandboxServices, options: SandboxDepositOptions): Promise<TransactionView> {
  return sandboxMovement(services, options, { operation: "sandbox_deposit", args: {} }, { type: "deposit", direction: "in" });
}

/**
 * Pays from the user's wallet: a completed outgoing `transfer` (or `withdrawal`, `fee`) to a
 * merchant or counterparty, dated now or up to SANDBOX_BACKDATE_DAYS back, so spending, the
 * feed's meta, budgets and insights can be tried. Its category is the one given, else the rules
 * of any movement (the user's word for the merchant, then the MCC). It may not overdraw the
 * wallet (TXN-409-002).
 */
export function sandboxPayment(services: SandboxServices, options: SandboxPaymentOptions): Promise<TransactionView> {
  const type = requireOneOf(SANDBOX_PAYMENT_TYPES, options.type ?? "transfer", ["type"]);
  const now = Date.now();
  const timestamp = options.timestamp ?? null;
  if (timestamp && (timestamp.getTime() > now + CLOCK_SKEW_MS || timestamp.getTime() < now - SANDBOX_BACKDATE_DAYS * DAY_MS))
    throw validationError(["timestamp"], `Input should be an instant between ${SANDBOX_BACKDATE_DAYS} days ago and now`, timestamp.getTime(), "timestamp_out_of_range");
  const merchant = options.merchant ? { name: options.merchant.name, mcc: options.merchant.mcc ?? null } : null;
  const args = { type, merchant, category: options.category ?? null, counterparty: options.counterparty ?? null, timestamp: timestamp?.getTime() ?? null };
  return sandboxMovement(
    services,
    options,
    { operation: "sandbox_payment", args },
    {
      type,
      direction: "out",
      merchant,
      counterparty: options.counterparty ?? null,
      ...(options.category != null && { category: options.category }),
      ...(timestamp && { timestamp }),
    },
  );
}
