// The contract of the users subgraph's internal `_wallet_owners` field: the users subgraph answers
// it, the identity subgraph reads it for the PINT exchange and mandate revocation. Described once
// here because neither subgraph may import the other's internals.

import type { PintSignerRole } from "./auth/pint-scopes.ts";
import type { WalletType } from "./vocabulary/wallets.ts";

export interface WalletSigner {
  address: string;
  /** owner: the wallet's own key, or the user's primary EOA for a Safe; agent: a registered signer of the Safe */
  role: PintSignerRole;
  /** whether the address is proven to be the user's: an unproven one (anyone may register any address) signs for nothing */
  verified: boolean;
}

export interface WalletOwner {
  user_id: string;
  environment_id: string;
  /** the account status (spec 3.1): `approved` once KYC passed */
  status: string;
  wallet_id: number;
  wallet_type: WalletType;
  /** the addresses that may sign for the wallet */
  signers: WalletSigner[];
}
