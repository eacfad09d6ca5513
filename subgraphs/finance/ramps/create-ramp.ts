import { appError } from "../../../lib/errors/app-error.ts";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";
import { newId } from "../../../lib/ids.ts";
import { findOwnedWallet, requireProvenWallet } from "../../../lib/owned-wallet.ts";
import type { CardDataCipher } from "../../../lib/crypto/card-data-cipher.ts";
import type { RampDirection } from "../../../lib/vocabulary/bank-accounts.ts";
import { isUniqueViolation } from "../../../lib/db/prisma-errors.ts";
import type { FinanceDb } from "../db.ts";
import type { AssetPrices } from "../prices/asset-prices.ts";
import { accountHolder } from "../cards/account-holder.ts";
import { fromJsonSnapshot, jsonSnapshot } from "../../../lib/db/with-idempotency.ts";
import { withIdempotency } from "../idempotency/with-idempotency.ts";
import type { Logger } from "../../../lib/logger.ts";
import { recordMovement } from "../transactions/record-movement.ts";
import { usdPriceNow } from "../transactions/usd-value.ts";
import type { BankingProvider } from "../banking/banking-provider.ts";
import { requireBanking } from "../banking/bank-accounts.ts";
import { requireRampConnection } from "./ramp-bank-account.ts";
import { getRamp, type RampView } from "./ramp-queries.ts";

export interface CreateRampServices {
  db: FinanceDb;
  users: FederatedClient;
  prices: Pick<AssetPrices, "price">;
  banking: BankingProvider | undefined;
  cardCipher: CardDataCipher;
  logger: Pick<Logger, "warn">;
}

/**
 * Carries out a quote (POST /v0/ramps/on or /off): KYC approved (RMP-403-001), the quote the
 * user's, of this direction (RMP-422-002), unexpired (RMP-409-002) and unused (RMP-409-001, also
 * under concurrent requests: a quote has one ramp), its bank connection active. In one database
 * transaction with the Idempotency-Key row: the ledger movement on the wallet (on_ramp in, or
 * off_ramp out, refused with TXN-409-002 when it would take more than the wallet holds, pending
 * outflows counted), the order to the provider (idempotent on the ramp id) and the ramp, `pending`.
 * Every later move is the provider's, by webhook: `processing` once it moves the money (the
 * sandbox reports it before this answers), then `completed` or `failed`.
 */
export async function createRamp(services: CreateRampServices, options: { user_id: string; direction: RampDirection; quote_id: string; idempotency_key?: string | null; trace_id: string }): Promise<RampView> {
  const provider = requireBanking(services.banking);
  const quote = await services.db.rampQuote.findFirst({ where: { id: options.quote_id, user_id: options.user_id } });
  if (!quote) throw appError("RMP-404-001");
  if (quote.direction !== options.direction) throw appError("RMP-422-002", `Quote ${quote.id} is for an ${quote.direction}-ramp.`);
  const holder = await accountHolder(services.users, options.user_id, options.trace_id);
  if (holder.status !== "approved") throw appError("RMP-403-001", `Ramps need an approved identity verification; yours is ${holder.status}.`);
  const wallet = await findOwnedWallet(services.users, { user_id: options.user_id, wallet_id: quote.wallet_id }, options.trace_id);
  if (wallet.address === null) throw appError("WAL-404-001", "The quote's wallet has no address yet.");
  if (options.direction === "off") requireProvenWallet(wallet, "fund an off-ramp");
  const usdPrice = await usdPriceNow(services.prices, { asset_symbol: quote.asset_symbol });

  let ramp: RampView;
  try {
    ramp = await withIdempotency<RampView>(
      services.db,
      { user_id: options.user_id, key: options.idempotency_key, operation: `ramp_${options.direction}`, args: { quote_id: quote.id }, snapshot: jsonSnapshot, restore: fromJsonSnapshot<RampView> },
      async (tx) => {
        if (await tx.ramp.findUnique({ where: { quote_id: quote.id }, select: { id: true } })) throw appError("RMP-409-001");
        const now = new Date();
        if (quote.expires_at <= now) throw appError("RMP-409-002");
        const account = await requireRampConnection(tx, options.user_id, quote.bank_account_id);
        const id = newId("rmp", now.getTime());
        const on = quote.direction === "on";
        const movement = await recordMovement(tx, {
          user_id: options.user_id,
          type: on ? "on_ramp" : "off_ramp",
          direction: on ? "in" : "out",
          amount: quote.asset_amount.toFixed(),
          unit: { asset_symbol: quote.asset_symbol, decimals: quote.asset_decimals },
          source: { kind: "wallet", id: quote.wallet_id },
          usd_price: usdPrice,
          description: `${on ? "On-ramp from" : "Off-ramp to"} ${account.connection.institution_name} •••• ${account.mask}`,
          counterparty: account.id,
          chain_id: quote.chain_id,
        });
        const order = await provider.createRamp({
          ramp_id: id,
          direction: options.direction,
          access_token: services.cardCipher.open(account.connection.access_token_sealed),
          provider_account_id: account.provider_account_id,
          chain_id: quote.chain_id,
          wallet_address: wallet.address!,
          asset_symbol: quote.asset_symbol,
          asset_amount: quote.asset_amount.toFixed(),
          currency: quote.currency,
          fiat_amount: quote.fiat_amount.toFixed(2),
        });
        await tx.ramp.create({ data: { id, user_id: options.user_id, quote_id: quote.id, transaction_id: movement.id, provider: provider.name, provider_ramp_id: order.provider_ramp_id, created_at: now, updated_at: now } });
        return getRamp(tx, options.user_id, id);
      },
    );
  } catch (error) {
    // a concurrent request carried out the same quote first
    if (isUniqueViolation(error)) throw appError("RMP-409-001");
    throw error;
  }
  if (!provider.rampStored) return ramp;
  const stored = await services.db.ramp.findUniqueOrThrow({ where: { id: ramp.id }, select: { provider_ramp_id: true, transaction_id: true } });
  // a replay (Idempotency-Key) of a ramp already under way answers it as first recorded
  const { status } = await services.db.transaction.findUniqueOrThrow({ where: { id: stored.transaction_id }, select: { status: true } });
  if (status !== "pending") return ramp;
  await provider.rampStored(stored.provider_ramp_id).catch((error: unknown) => services.logger.warn({ err: error, ramp_id: ramp.id }, "ramp: the provider's processing report failed; its next webhook moves the ramp"));
  return getRamp(services.db, options.user_id, ramp.id);
}
