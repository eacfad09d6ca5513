/** The wallet a balance is asked for, as the users subgraph describes it (federation, `@requires`). */
export interface BalanceWallet {
  id: number;
  chain_id: number;
  /** null while a Safe is being deployed */
  address: string | null;
}

/** One asset a wallet holds: the catalogue symbol and the amount in its base units (a whole decimal string). */
export interface HeldBalance {
  symbol: string;
  balance: string;
}

/** Where wallet balances come from (BALANCE_SOURCE): the ledger, or the chain itself. Zero balances are left out. */
export interface BalanceSource {
  walletBalances(wallet: BalanceWallet): Promise<HeldBalance[]>;
}
