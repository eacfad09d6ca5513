import type { ExternalMovement } from "../../../lib/automation-finance.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { FinanceDb } from "../db.ts";
import type { AssetPrices } from "../prices/asset-prices.ts";
import { recordMovement } from "../transactions/record-movement.ts";
import { usdPriceNow } from "../transactions/usd-value.ts";

/**
 * Records what a connector reports of an outside account (an exchange): the account (made on its
 * first report, reopened on a reconnect) and each movement not yet recorded, as completed ledger
 * rows on it, in one database transaction: a report repeated (a sync retried) records nothing
 * twice (unique on the account and the service's id). Assets must be in the catalogue
 * (TXN-422-002). Answers how many movements were new.
 */
export async function syncExternalAccount(
  services: { db: FinanceDb; prices: Pick<AssetPrices, "price"> },
  input: { user_id: string; account_id: string; provider: string; name: string; movements: ExternalMovement[] },
): Promise<number> {
  const symbols = [...new Set(input.movements.map((movement) => movement.asset.toUpperCase()))];
  const assets = new Map((await services.db.asset.findMany({ where: { asset_type: "crypto", symbol: { in: symbols } }, select: { symbol: true, decimals: true } })).map((asset) => [asset.symbol, asset]));
  for (const symbol of symbols) if (!assets.has(symbol)) throw appError("TXN-422-002", `No asset ${symbol} is in the catalogue.`);
  const prices = new Map(await Promise.all(symbols.map(async (symbol) => [symbol, await usdPriceNow(services.prices, { asset_symbol: symbol })] as const)));
  return services.db.$transaction(async (tx) => {
    const owner = await tx.externalAccount.findUnique({ where: { id: input.account_id }, select: { user_id: true } });
    if (owner && owner.user_id !== input.user_id) throw appError("GEN-404-001", "No such external account for this user.");
    await tx.externalAccount.upsert({
      where: { id: input.account_id },
      create: { id: input.account_id, user_id: input.user_id, provider: input.provider, name: input.name },
      update: { name: input.name, closed_at: null },
    });
    let recorded = 0;
    for (const movement of input.movements) {
      const known = await tx.transaction.findUnique({ where: { external_account_id_provider_transaction_id: { external_account_id: input.account_id, provider_transaction_id: movement.external_id } }, select: { id: true } });
      if (known) continue;
      const asset = assets.get(movement.asset.toUpperCase())!;
      await recordMovement(tx, {
        user_id: input.user_id,
        type: movement.type,
        direction: movement.direction,
        amount: movement.amount,
        unit: { asset_symbol: asset.symbol, decimals: asset.decimals },
        source: { kind: "external_account", id: input.account_id },
        status: "completed",
        // the service keeps its own books: what it reports happened
        overdraft: "allow",
        usd_price: prices.get(asset.symbol) ?? null,
        usd_beyond_bound: "unpriced",
        description: movement.description,
        counterparty: input.name,
        provider_transaction_id: movement.external_id,
        timestamp: movement.timestamp,
      });
      recorded++;
    }
    return recorded;
  });
}

/** Closes the account (its connector was disconnected): it leaves the accounts view, its rows stay in the feed. */
export async function closeExternalAccount(db: FinanceDb, userId: string, accountId: string): Promise<boolean> {
  const { count } = await db.externalAccount.updateMany({ where: { id: accountId, user_id: userId, closed_at: null }, data: { closed_at: new Date() } });
  return count === 1;
}
