// The contract of the users subgraph's internal `_owned_wallet` field: the users subgraph answers
// it, the finance subgraph asks it before booking a movement against a wallet. Described once here
// because neither subgraph may import the other's internals.

import type { WalletType } from "./vocabulary/wallets.ts";

/** A live wallet (role `wallet`, EOA or Safe) of one user. */
export interface OwnedWallet {
  id: number;
  chain_id: number;
  type: WalletType;
  /** null while a Safe is being deployed */
  address: string | null;
}
