import type { AccountSource } from "../../../lib/vocabulary/assets.ts";
import type { CardFundingSourceType, CardStatus } from "../../../lib/vocabulary/cards.ts";
import { ASSET_INCLUDE, assetView } from "../assets/asset-view.ts";
import type { BalanceWallet } from "../balances/balance-source.ts";
import { sumDecimals, valueUsd } from "../../../lib/decimal.ts";
import { assetBalanceViews, walletAssets, type AssetBalanceView, type WalletAssetServices } from "../balances/wallet-assets.ts";
import { sourceBalances } from "../transactions/balances.ts";
import type { Prisma } from "../db.ts";
import type { AccountView } from "../types/account.ts";
import { usdPriceNow } from "../transactions/usd-value.ts";

/** One entry of the unified account view; bank accounts and cards fill the same fields (chain_id and address null). */
export interface AccountEntry {
  source: AccountSource;
  source_id: string;
  name: string | null;
  chain_id: number | null;
  address: string | null;
  balances: AssetBalanceView[];
  total_value_usd: string;
  /** source card: what it is and where its money is (null for other sources) */
  card: { status: CardStatus; currency: string; funding_source: { type: CardFundingSourceType; id: string } } | null;
}

/** The user's accounts as GraphQL's AccountView answers them, each entry as made here (an asset's price resolves on its own). */
export type UserAccounts = Omit<AccountView, "items"> & { items: AccountEntry[] };

/** The user's wallets as the users subgraph hands them over (`@requires` on User.wallets). */
export interface AccountWallet extends BalanceWallet {
  nickname: string | null;
}

/** The exact USD total of balances with a price (those without one count for nothing). */
export function totalValueUsd(values: readonly (string | null)[]): string {
  return sumDecimals(values.filter((value): value is string => value !== null));
}

async function walletAccount(services: WalletAssetServices, wallet: AccountWallet): Promise<AccountEntry> {
  const balances = await walletAssets(services, wallet);
  return {
    source: "crypto_wallet",
    source_id: String(wallet.id),
    name: wallet.nickname,
    chain_id: wallet.chain_id,
    address: wallet.address,
    balances,
    total_value_usd: totalValueUsd(balances.map((balance) => balance.value_usd)),
    card: null,
  };
}

/** A reported amount in base units (cents for USD): its digits at the currency's decimals, a whole decimal string. */
const baseUnits = (amount: Prisma.Decimal, decimals: number) => BigInt(amount.toFixed(decimals).replace(".", "")).toString();

/**
 * The user's linked bank accounts (unlinked ones left out), oldest first, each holding its currency
 * (a catalogue fiat asset) at the balance the bank last reported, valued at the currency's USD
 * price. That is the bank's own figure: card purchases it has not posted yet are in the feed and
 * in what a card may spend, not here. No reported balance, or zero, is no balance.
 */
async function bankAccounts(services: WalletAssetServices, userId: string): Promise<AccountEntry[]> {
  const accounts = await services.db.bankAccount.findMany({
    where: { user_id: userId, unlinked_at: null },
    select: { id: true, name: true, currency: true, balance: true },
    orderBy: [{ created_at: "asc" }, { id: "asc" }],
  });
  if (accounts.length === 0) return [];
  const rows = await services.db.asset.findMany({ where: { asset_type: "fiat", symbol: { in: accounts.map((account) => account.currency) } }, include: ASSET_INCLUDE });
  const catalogue = new Map(rows.map((row) => [row.symbol, assetView(row)]));
  return Promise.all(
    accounts.map(async (account): Promise<AccountEntry> => {
      const asset = catalogue.get(account.currency);
      const balances: AssetBalanceView[] = [];
      if (asset && account.balance !== null && !account.balance.isZero()) {
        const balance = baseUnits(account.balance, asset.decimals);
        const price = await usdPriceNow(services.prices, { currency: account.currency });
        balances.push({ asset, balance, value_usd: price === null ? null : valueUsd(balance, asset.decimals, price) });
      }
      return { source: "bank_account", source_id: account.id, name: account.name, chain_id: null, address: null, balances, total_value_usd: totalValueUsd(balances.map((b) => b.value_usd)), card: null };
    }),
  );
}

/**
 * The user's cards that are not closed, oldest first. A card holds nothing of its own: its
 * purchases move its funding source, whose entry already counts that money, so a card's entry has
 * no balances and a total of 0 (never counted twice) and names its funding source instead.
 */
async function cardAccounts(services: WalletAssetServices, userId: string): Promise<AccountEntry[]> {
  const cards = await services.db.card.findMany({ where: { user_id: userId, status: { not: "closed" } }, orderBy: [{ created_at: "asc" }, { id: "asc" }] });
  return cards.map((card) => ({
    source: "card",
    source_id: card.id,
    name: card.nickname ?? `${card.type === "physical" ? "Physical" : "Virtual"} card •••• ${card.last_four}`,
    chain_id: null,
    address: null,
    balances: [],
    total_value_usd: "0",
    card: { status: card.status as CardStatus, currency: card.currency, funding_source: { type: card.funding_source_type as CardFundingSourceType, id: card.funding_source_id } },
  }));
}

/**
 * Accounts at outside services (an exchange a user connector reports): crypto held for the user
 * elsewhere, so `crypto_wallet` entries (source_id the connector's account id, no chain or
 * address), their balances summed from the ledger rows the connector reported (completed ones).
 */
async function externalAccounts(services: WalletAssetServices, userId: string): Promise<AccountEntry[]> {
  const accounts = await services.db.externalAccount.findMany({ where: { user_id: userId, closed_at: null }, orderBy: [{ created_at: "asc" }, { id: "asc" }] });
  return Promise.all(
    accounts.map(async (account) => {
      const held = (await sourceBalances(services.db, { kind: "external_account", id: account.id }))
        .filter((row) => row.asset_symbol !== null && row.balance_base_units !== "0")
        .map((row) => ({ symbol: row.asset_symbol!, balance: row.balance_base_units }));
      const balances = await assetBalanceViews(services, held);
      return { source: "crypto_wallet" as const, source_id: account.id, name: account.name, chain_id: null, address: null, balances, total_value_usd: totalValueUsd(balances.map((b) => b.value_usd)), card: null };
    }),
  );
}

/**
 * The unified account view: one entry per source, crypto wallets (by wallet id), accounts at
 * outside services, then linked bank accounts, then cards last, after both kinds of source a card
 * may spend from. The total is the exact sum of the entries' totals.
 */
export async function accountView(services: WalletAssetServices, userId: string, wallets: readonly AccountWallet[]): Promise<UserAccounts> {
  const [walletItems, externalItems, bankItems, cardItems] = await Promise.all([
    Promise.all([...wallets].sort((a, b) => a.id - b.id).map((wallet) => walletAccount(services, wallet))),
    externalAccounts(services, userId),
    bankAccounts(services, userId),
    cardAccounts(services, userId),
  ]);
  const items = [...walletItems, ...externalItems, ...bankItems, ...cardItems];
  return { items, total_value_usd: sumDecimals(items.map((item) => item.total_value_usd)) };
}
