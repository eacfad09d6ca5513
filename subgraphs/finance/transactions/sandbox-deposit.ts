import { appError } from "../../../lib/errors/app-error.ts";
import type { FinanceServices } from "../services.ts";
import { withIdempotency } from "../idempotency/with-idempotency.ts";
import { depositAsset } from "./deposit-asset.ts";
import { findOwnedWallet } from "./owned-wallets.ts";
import { recordMovement } from "./record-movement.ts";
import { usdPriceNow } from "./usd-value.ts";
import { transactionFromSnapshot, transactionSnapshot, type TransactionView } from "./transaction-record.ts";

export interface SandboxDepositOptions {
  user_id: string;
  wallet_id: number;
  asset: string;
  amount: string;
  description?: string | null;
  idempotency_key?: string | null;
  trace_id: string;
}

/**
 * Sandbox mode only (else GEN-404-001, as if the route did not exist): credits the user's wallet
 * with a completed `deposit` (direction in), so a new user can try balances and the feed without
 * a chain. The wallet must be the caller's (asked of the users subgraph: WAL-404-001), the asset
 * in the catalogue on the wallet's chain (TXN-422-002) and the amount within its decimals; its
 * amount_usd is at the asset's price of the moment. Honours the Idempotency-Key.
 */
export async function sandboxDeposit(services: Pick<FinanceServices, "db" | "users" | "sandbox" | "prices">, options: SandboxDepositOptions): Promise<TransactionView> {
  if (!services.sandbox) throw appError("GEN-404-001", "Sandbox deposits exist only in sandbox mode (SANDBOX=true).");
  const wallet = await findOwnedWallet(services.users, { user_id: options.user_id, wallet_id: options.wallet_id }, options.trace_id);
  const asset = await depositAsset(services.db, options.asset, wallet.chain_id);
  const usdPrice = await usdPriceNow(services.prices, { asset_symbol: asset.symbol });
  const args = { wallet_id: options.wallet_id, asset: options.asset, amount: options.amount, description: options.description ?? null };
  return withIdempotency(
    services.db,
    { user_id: options.user_id, key: options.idempotency_key, operation: "sandbox_deposit", args, snapshot: transactionSnapshot, restore: transactionFromSnapshot },
    (tx) =>
      recordMovement(tx, {
        user_id: options.user_id,
        type: "deposit",
        direction: "in",
        status: "completed",
        amount: options.amount,
        unit: { asset_symbol: asset.symbol, decimals: asset.decimals },
        usd_price: usdPrice,
        source: { kind: "wallet", id: wallet.id },
        chain_id: wallet.chain_id,
        description: options.description ?? null,
      }),
  );
}
