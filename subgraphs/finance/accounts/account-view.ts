import type { AccountSource } from "../../../lib/vocabulary/assets.ts";
import type { CardFundingSourceType, CardStatus } from "../../../lib/vocabulary/cards.ts";
import type { BalanceWallet } from "../balances/balance-source.ts";
import { sumDecimals } from "../balances/usd-value.ts";
import { walletAssets, type AssetBalanceView, type WalletAssetServices } from "../balances/wallet-assets.ts";

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

export interface AccountViewRecord {
  items: AccountEntry[];
  total_value_usd: string;
}

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
 * The unified account view: one entry per source, crypto wallets (by wallet id), then cards; bank
 * accounts append their entries here once they exist. The total is the exact sum of the entries'
 * totals.
 */
export async function accountView(services: WalletAssetServices, userId: string, wallets: readonly AccountWallet[]): Promise<AccountViewRecord> {
  const [walletItems, cardItems] = await Promise.all([Promise.all([...wallets].sort((a, b) => a.id - b.id).map((wallet) => walletAccount(services, wallet))), cardAccounts(services, userId)]);
  const items = [...walletItems, ...cardItems];
  return { items, total_value_usd: sumDecimals(items.map((item) => item.total_value_usd)) };
}
