/** Spec 2.3: a wallet is key-controlled (EOA) or a smart account (Safe). */
export const WALLET_TYPES = ["EOA", "Safe"] as const;
export type WalletType = (typeof WALLET_TYPES)[number];

/** `signer`: an address in the signer set of the user's Safe (readable by id, never listed). */
export const WALLET_ROLES = ["wallet", "signer"] as const;
export type WalletRole = (typeof WALLET_ROLES)[number];

/** Safe creation states of spec 3.2 (the moves between them: subgraphs/users/wallets/safe-creation-status.ts). */
export const SAFE_CREATION_STATUSES = ["processing", "completed", "failed"] as const;
export type SafeCreationStatus = (typeof SAFE_CREATION_STATUSES)[number];
