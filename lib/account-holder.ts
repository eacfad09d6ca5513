// The contract of the users subgraph's internal `_account_holder` field: the users subgraph answers
// it, the finance subgraph asks it before issuing a card (KYC) and when checking a card-details
// proof (the primary EOA that must sign). Described once here because neither subgraph may
// import the other's internals.

import type { AccountStatus } from "./vocabulary/kyc.ts";

export interface AccountHolder {
  user_id: string;
  /** spec 3.1's verification status */
  status: AccountStatus;
  /** checksummed */
  primary_eoa_address: string;
}
