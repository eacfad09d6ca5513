import type { AutomationCause } from "../../../lib/automation-finance.ts";
import { appError, validationError } from "../../../lib/errors/app-error.ts";
import { findOwnedWallet } from "../../../lib/owned-wallet.ts";
import type { FinanceServices } from "../services.ts";
import { fromJsonSnapshot, jsonSnapshot } from "../../../lib/db/with-idempotency.ts";
import { withIdempotency } from "../idempotency/with-idempotency.ts";
import { parseAmount } from "../transactions/amount.ts";
import { depositAsset } from "../transactions/deposit-asset.ts";
import { recordMovement } from "../transactions/record-movement.ts";
import { usdPriceNow } from "../transactions/usd-value.ts";
import type { TransactionView } from "../transactions/transaction-view.ts";

type AutomationServices = Pick<FinanceServices, "db" | "users" | "prices">;

export interface AutomationTransferInput {
  user_id: string;
  /** the run's own key (its task): a repeated run moves nothing more */
  key: string;
  from_wallet_id: number;
  to_wallet_id: number;
  asset: string;
  amount: string;
  description: string;
  /** why automation makes it: kept on its rows, so their ledger events carry it */
  cause: AutomationCause;
  trace_id: string;
}

/**
 * A transfer between two of the user's wallets on one chain, for a strategy's run: a completed
 * `transfer` out of one and into the other in one database transaction, refused with TXN-409-002
 * when the source cannot cover it. Idempotent on `key`, so a run repeated after a dead runner
 * answers the first transfer and moves nothing twice. Both rows carry the automation's cause.
 */
export async function automationTransfer(services: AutomationServices, input: AutomationTransferInput): Promise<TransactionView[]> {
  if (input.from_wallet_id === input.to_wallet_id) throw validationError(["to_wallet_id"], "Value error, the wallets must differ", input.to_wallet_id, "value_error");
  const [from, to] = await Promise.all([input.from_wallet_id, input.to_wallet_id].map((wallet_id) => findOwnedWallet(services.users, { user_id: input.user_id, wallet_id }, input.trace_id)));
  if (from!.chain_id !== to!.chain_id) throw appError("TXN-422-002", `The wallets are on chains ${from!.chain_id} and ${to!.chain_id}; a transfer stays on one chain.`);
  const asset = await depositAsset(services.db, input.asset, from!.chain_id);
  const amount = parseAmount(input.amount, asset.decimals, ["amount"]);
  const usdPrice = await usdPriceNow(services.prices, { asset_symbol: asset.symbol });
  const args = { from: from!.id, to: to!.id, asset: asset.symbol, amount };
  return withIdempotency<TransactionView[]>(
    services.db,
    { user_id: input.user_id, key: input.key, operation: "automation_transfer", args, snapshot: jsonSnapshot, restore: fromJsonSnapshot<TransactionView[]> },
    async (tx) => {
      const common = { user_id: input.user_id, type: "transfer" as const, amount, unit: { asset_symbol: asset.symbol, decimals: asset.decimals }, status: "completed" as const, usd_price: usdPrice, description: input.description, chain_id: from!.chain_id, automation_cause: input.cause };
      const out = await recordMovement(tx, { ...common, direction: "out", source: { kind: "wallet", id: from!.id }, counterparty: to!.address });
      const into = await recordMovement(tx, { ...common, direction: "in", source: { kind: "wallet", id: to!.id }, counterparty: from!.address });
      return [out, into];
    },
  );
}

export interface AutomationSwapInput {
  user_id: string;
  key: string;
  wallet_id: number;
  pay_asset: string;
  buy_asset: string;
  /** what is paid, in pay_asset */
  pay_amount: string;
  description: string;
  /** why automation makes it: kept on its rows, so their ledger events carry it */
  cause: AutomationCause;
  trace_id: string;
}

/**
 * A swap in one wallet at the current prices, for a recurring buy: a completed `swap` out of the
 * paying asset and one into the bought asset (pay amount × pay price / buy price, cut to its
 * decimals), in one database transaction, idempotent on `key` like automationTransfer. No price
 * for either asset: GEN-503-001 (the run is retried).
 */
export async function automationSwap(services: AutomationServices, input: AutomationSwapInput): Promise<TransactionView[]> {
  const wallet = await findOwnedWallet(services.users, { user_id: input.user_id, wallet_id: input.wallet_id }, input.trace_id);
  const [pay, buy] = await Promise.all([depositAsset(services.db, input.pay_asset, wallet.chain_id), depositAsset(services.db, input.buy_asset, wallet.chain_id)]);
  if (pay.symbol === buy.symbol) throw validationError(["asset"], "Value error, the asset bought must differ from the one paid with", input.buy_asset, "value_error");
  const amount = parseAmount(input.pay_amount, pay.decimals, ["amount"]);
  const [payUsd, buyUsd] = await Promise.all([usdPriceNow(services.prices, { asset_symbol: pay.symbol }), usdPriceNow(services.prices, { asset_symbol: buy.symbol })]);
  if (payUsd === null || buyUsd === null) throw appError("GEN-503-001", `No price is known for ${payUsd === null ? pay.symbol : buy.symbol} right now.`);
  const args = { wallet: wallet.id, pay: pay.symbol, buy: buy.symbol, amount };
  return withIdempotency<TransactionView[]>(
    services.db,
    { user_id: input.user_id, key: input.key, operation: "automation_swap", args, snapshot: jsonSnapshot, restore: fromJsonSnapshot<TransactionView[]> },
    async (tx) => {
      const [row] = await tx.$queryRaw<{ bought: string }[]>`SELECT trim_scale(trunc(${amount}::numeric * ${payUsd}::numeric / nullif(${buyUsd}::numeric, 0), ${buy.decimals}::int))::text AS bought`;
      const bought = row?.bought;
      if (!bought || bought === "0") throw validationError(["amount"], `Value error, ${amount} ${pay.symbol} buys no ${buy.symbol} at the current price`, amount, "value_error");
      const common = { user_id: input.user_id, type: "swap" as const, status: "completed" as const, source: { kind: "wallet" as const, id: wallet.id }, description: input.description, chain_id: wallet.chain_id, automation_cause: input.cause };
      const out = await recordMovement(tx, { ...common, direction: "out", amount, unit: { asset_symbol: pay.symbol, decimals: pay.decimals }, usd_price: payUsd });
      const into = await recordMovement(tx, { ...common, direction: "in", amount: bought, unit: { asset_symbol: buy.symbol, decimals: buy.decimals }, usd_price: buyUsd });
      return [out, into];
    },
  );
}
