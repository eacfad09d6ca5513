import { appError } from "../../../lib/errors/app-error.ts";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";
import { newId } from "../../../lib/ids.ts";
import { findOwnedWallet, requireProvenWallet } from "../../../lib/owned-wallet.ts";
import type { RampDirection } from "../../../lib/vocabulary/bank-accounts.ts";
import type { FinanceDb } from "../db.ts";
import type { AssetPrices } from "../prices/asset-prices.ts";
import { amountBeyondBound, parseAmount, withinAmountBound } from "../transactions/amount.ts";
import { depositAsset } from "../transactions/deposit-asset.ts";
import { usdPriceNow } from "../transactions/usd-value.ts";
import type { BankingProvider } from "../banking/banking-provider.ts";
import { requireBanking } from "../banking/bank-accounts.ts";
import { requireRampConnection } from "./ramp-bank-account.ts";

/** How long a quote holds: long enough to confirm, short enough that the price still stands. */
export const RAMP_QUOTE_TTL_MS = 5 * 60_000;

export interface RampQuoteServices {
  db: FinanceDb;
  users: FederatedClient;
  prices: Pick<AssetPrices, "price">;
  banking: BankingProvider | undefined;
}

export interface RampQuoteInput {
  user_id: string;
  direction: RampDirection;
  bank_account_id: string;
  wallet_id: number;
  /** the crypto asset's symbol */
  asset: string;
  /** on: the fiat the bank account pays; off: the asset the wallet sends */
  amount: string;
  trace_id: string;
}

export type RampQuoteRow = NonNullable<Awaited<ReturnType<FinanceDb["rampQuote"]["findUnique"]>>>;

/** A quote as the API shows it: every amount a decimal string. */
export function rampQuoteView(row: RampQuoteRow) {
  return {
    id: row.id,
    direction: row.direction as RampDirection,
    bank_account_id: row.bank_account_id,
    wallet_id: row.wallet_id,
    chain_id: row.chain_id,
    asset: row.asset_symbol,
    asset_amount: row.asset_amount.toFixed(),
    currency: row.currency,
    fiat_amount: row.fiat_amount.toFixed(2),
    rate: row.rate.toFixed(),
    fee: row.fee.toFixed(2),
    expires_at: row.expires_at,
    created_at: row.created_at,
  };
}
export type RampQuoteView = ReturnType<typeof rampQuoteView>;

/**
 * Prices a ramp between one of the user's linked bank accounts and one of their wallets. The rate
 * is the asset's USD price over the currency's (fiat per whole unit); the provider's fee
 * (`rampFees`: a percentage with a minimum, in fiat) is taken from the fiat side. On: `amount` is
 * the fiat paid, the wallet receives (fiat − fee) / rate, cut to the asset's decimals. Off:
 * `amount` is the asset sent, the bank receives amount × rate cut to cents, less the fee. All of
 * it in NUMERIC, never a float; nothing left after the fee is RMP-422-001.
 */
export async function quoteRamp(services: RampQuoteServices, input: RampQuoteInput): Promise<RampQuoteView> {
  const provider = requireBanking(services.banking);
  const { direction } = input;
  const account = await requireRampConnection(services.db, input.user_id, input.bank_account_id);
  const wallet = await findOwnedWallet(services.users, { user_id: input.user_id, wallet_id: input.wallet_id }, input.trace_id);
  if (direction === "off") requireProvenWallet(wallet, "fund an off-ramp");
  const asset = await depositAsset(services.db, input.asset, wallet.chain_id);
  const amount = parseAmount(input.amount, direction === "on" ? 2 : asset.decimals, ["amount"]);
  const [assetUsd, currencyUsd] = await Promise.all([usdPriceNow(services.prices, { asset_symbol: asset.symbol }), usdPriceNow(services.prices, { currency: account.currency })]);
  if (assetUsd === null || currencyUsd === null) throw appError("RMP-503-001");
  const fees = provider.rampFees(direction, account.currency);

  const [priced] = await services.db.$queryRaw<{ rate: string; fiat: string; asset: string; fee: string; asset_usd: string; ok: boolean }[]>`
    WITH r AS (SELECT round(${assetUsd}::numeric / nullif(${currencyUsd}::numeric, 0), 18) AS rate),
    gross AS (SELECT CASE WHEN ${direction} = 'on' THEN ${amount}::numeric ELSE trunc(${amount}::numeric * r.rate, 2) END AS fiat FROM r),
    fee AS (SELECT greatest(${fees.minimum}::numeric, round(gross.fiat * ${fees.percent}::numeric / 100, 2)) AS fee FROM gross),
    q AS (
      SELECT r.rate, fee.fee,
        CASE WHEN ${direction} = 'on' THEN gross.fiat ELSE gross.fiat - fee.fee END AS fiat,
        CASE WHEN ${direction} = 'on' THEN trunc((gross.fiat - fee.fee) / nullif(r.rate, 0), ${asset.decimals}::int) ELSE ${amount}::numeric END AS asset
      FROM r, gross, fee)
    SELECT rate::text, fee::text, fiat::text, asset::text, (asset * ${assetUsd}::numeric)::text AS asset_usd, coalesce(fiat > 0 AND asset > 0, false) AS ok FROM q`;
  if (!priced?.ok) throw appError(priced && priced.rate !== null ? "RMP-422-001" : "RMP-503-001");
  // the other side and the wallet movement's USD value are bounded as the amount is, before a column overflows
  for (const [what, value] of [[direction === "on" ? "asset amount (amount ÷ rate)" : "fiat amount (amount × rate)", direction === "on" ? priced.asset : priced.fiat], ["USD value (asset amount × price)", priced.asset_usd]] as const)
    if (!withinAmountBound(value)) throw amountBeyondBound(what, ["amount"], input.amount);

  const now = new Date();
  const row = await services.db.rampQuote.create({
    data: {
      id: newId("rmq", now.getTime()),
      user_id: input.user_id,
      direction,
      bank_account_id: account.id,
      wallet_id: wallet.id,
      chain_id: wallet.chain_id,
      asset_symbol: asset.symbol,
      asset_decimals: asset.decimals,
      currency: account.currency,
      fiat_amount: priced.fiat,
      asset_amount: priced.asset,
      rate: priced.rate,
      fee: priced.fee,
      expires_at: new Date(now.getTime() + RAMP_QUOTE_TTL_MS),
      created_at: now,
    },
  });
  return rampQuoteView(row);
}
