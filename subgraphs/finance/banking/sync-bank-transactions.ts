import type { CardDataCipher } from "../../../lib/crypto/card-data-cipher.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { TransactionStatus } from "../../../lib/vocabulary/transactions.ts";
import type { FinanceDb, FinanceTx } from "../db.ts";
import type { AssetPrices } from "../prices/asset-prices.ts";
import { walkTransactionStatus } from "../transactions/move-transaction-status.ts";
import { recordMovement } from "../transactions/record-movement.ts";
import { usdPriceNow } from "../transactions/usd-value.ts";
import type { BankingProvider, ProviderBankTransaction, TransactionsSyncPage } from "./banking-provider.ts";

/** How many pages one sync takes before it leaves the rest to the next (a runaway provider cannot hold it forever). */
const MAX_PAGES = 100;

export interface BankSyncServices {
  db: FinanceDb;
  banking: BankingProvider;
  cardCipher: CardDataCipher;
  prices: Pick<AssetPrices, "price">;
  logger: Pick<Logger, "warn">;
}

/** What a sync did: ledger rows added, modified and failed (removed), and reports it could not apply. */
export interface BankSyncResult {
  added: number;
  modified: number;
  removed: number;
  ignored: number;
}

const statusOf = (transaction: ProviderBankTransaction): TransactionStatus => (transaction.pending ? "pending" : "completed");

/**
 * Syncs a connection's bank transactions into the ledger, page by page from its stored cursor
 * (Plaid's /transactions/sync). Each page is applied in one database transaction together with the
 * move of the cursor, and only if the cursor is still the one the page was asked with: of two
 * concurrent syncs (a redelivered webhook) each page lands once, and the loser goes on from the
 * winner's cursor. New transactions are recorded with their provider id (unique per bank
 * account), so nothing is booked twice. Accounts the user unlinked are skipped: they stop syncing.
 */
export async function syncBankConnection(services: BankSyncServices, connectionId: string): Promise<BankSyncResult> {
  const totals: BankSyncResult = { added: 0, modified: 0, removed: 0, ignored: 0 };
  for (let round = 0; round < MAX_PAGES; round++) {
    const connection = await services.db.bankConnection.findUnique({ where: { id: connectionId } });
    if (!connection || connection.status === "revoked") return totals;
    const page = await services.banking.syncTransactions(services.cardCipher.open(connection.access_token_sealed), connection.sync_cursor);
    const prices = await currencyPrices(services.prices, page);
    const applied = await services.db.$transaction(async (tx) => {
      const { count } = await tx.bankConnection.updateMany({ where: { id: connection.id, sync_cursor: connection.sync_cursor }, data: { sync_cursor: page.next_cursor, synced_at: new Date() } });
      // another sync applied this page first; go on from its cursor
      if (count === 0) return null;
      return applyPage(tx, connection.id, page, prices);
    });
    if (applied) for (const key of Object.keys(totals) as (keyof BankSyncResult)[]) totals[key] += applied[key];
    if (applied && !page.has_more) return totals;
  }
  services.logger.warn({ connection_id: connectionId }, "bank sync: page limit reached; the next sync goes on from here");
  return totals;
}

/** USD per unit of each currency on the page (outside the database transaction: the price source may be remote). */
async function currencyPrices(prices: Pick<AssetPrices, "price">, page: TransactionsSyncPage): Promise<Map<string, string | null>> {
  const currencies = new Set([...page.added, ...page.modified].map((transaction) => transaction.currency));
  return new Map(await Promise.all([...currencies].map(async (currency) => [currency, await usdPriceNow(prices, { currency })] as const)));
}

async function applyPage(tx: FinanceTx, connectionId: string, page: TransactionsSyncPage, prices: Map<string, string | null>): Promise<BankSyncResult> {
  const result: BankSyncResult = { added: 0, modified: 0, removed: 0, ignored: 0 };
  const accounts = new Map((await tx.bankAccount.findMany({ where: { connection_id: connectionId, unlinked_at: null } })).map((account) => [account.provider_account_id, account]));
  const existing = (accountId: string, providerTransactionId: string) =>
    tx.transaction.findUnique({ where: { bank_account_id_provider_transaction_id: { bank_account_id: accountId, provider_transaction_id: providerTransactionId } } });

  for (const reported of [...page.added, ...page.modified]) {
    const account = accounts.get(reported.provider_account_id);
    if (!account) {
      result.ignored++;
      continue;
    }
    const row = await existing(account.id, reported.provider_transaction_id);
    if (!row) {
      await recordMovement(tx, {
        user_id: account.user_id,
        type: reported.type,
        direction: reported.direction,
        amount: reported.amount,
        unit: { currency: reported.currency, decimals: 2 },
        source: { kind: "bank_account", id: account.id },
        status: statusOf(reported),
        // the bank keeps its own books: what it reports happened, whatever our sum of its rows says
        overdraft: "allow",
        usd_price: prices.get(reported.currency) ?? null,
        usd_beyond_bound: "unpriced",
        category: reported.category,
        description: reported.description,
        merchant: reported.merchant_name ? { name: reported.merchant_name, mcc: null } : null,
        counterparty: reported.counterparty,
        provider_transaction_id: reported.provider_transaction_id,
        timestamp: reported.date,
      });
      result.added++;
      continue;
    }
    const now = new Date();
    await tx.transaction.update({
      where: { id: row.id },
      data: {
        amount: reported.amount,
        description: reported.description,
        // a category the user chose (or an earlier report gave) stays
        category: row.category ?? reported.category,
        merchant_name: reported.merchant_name,
        counterparty: reported.counterparty,
        timestamp: reported.date,
        updated_at: now,
      },
    });
    const target = statusOf(reported);
    if (row.status === target || (await walkTransactionStatus(tx, { id: row.id, user_id: row.user_id, status: row.status as TransactionStatus }, target, now))) result.modified++;
    else result.ignored++;
  }

  for (const gone of page.removed) {
    const account = accounts.get(gone.provider_account_id);
    const row = account && (await existing(account.id, gone.provider_transaction_id));
    // a posted transaction is history: the bank cannot take it back by removing it, only by a refund
    if (row && (await walkTransactionStatus(tx, { id: row.id, user_id: row.user_id, status: row.status as TransactionStatus }, "failed"))) result.removed++;
    else result.ignored++;
  }

  for (const { provider_account_id, balance } of page.balances) {
    const account = accounts.get(provider_account_id);
    if (account) await tx.bankAccount.update({ where: { id: account.id }, data: { balance } });
  }
  return result;
}
