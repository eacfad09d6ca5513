import type { AccountSource } from "../../../lib/vocabulary/assets.ts";
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
  };
}

/**
 * The unified account view: one entry per source, crypto wallets (by wallet id) now; bank accounts
 * and cards append their entries here once their ledgers exist. The total is the exact sum of the
 * entries' totals.
 */
export async function accountView(services: WalletAssetServices, wallets: readonly AccountWallet[]): Promise<AccountViewRecord> {
  const items = await Promise.all([...wallets].sort((a, b) => a.id - b.id).map((wallet) => walletAccount(services, wallet)));
  return { items, total_value_usd: sumDecimals(items.map((item) => item.total_value_usd)) };
}
