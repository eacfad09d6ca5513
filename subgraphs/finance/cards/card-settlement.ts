import { appError, validationError } from "../../../lib/errors/app-error.ts";
import type { CardFundingSourceType } from "../../../lib/vocabulary/cards.ts";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";
import type { FinanceTx } from "../db.ts";
import { depositAsset } from "../transactions/deposit-asset.ts";
import type { LedgerSource } from "../transactions/ledger-source.ts";
import { findOwnedWallet } from "../../../lib/owned-wallet.ts";

/**
 * The currencies a card may be in, and the stablecoin a crypto wallet settles each in, one to one:
 * a 12.50 USD purchase debits 12.50 USDC from the funding wallet.
 */
export const CARD_CURRENCIES = { USD: "USDC", EUR: "EURC" } as const;
export type CardCurrency = keyof typeof CARD_CURRENCIES;
/** Card amounts (limits, authorizations) are in cents. */
export const CARD_DECIMALS = 2;

export function requireCardCurrency(value: string | null | undefined, loc: (string | number)[]): CardCurrency {
  const currency = (value ?? "USD").toUpperCase();
  if (!(currency in CARD_CURRENCIES)) throw validationError(loc, `Input should be ${Object.keys(CARD_CURRENCIES).map((c) => `'${c}'`).join(", ")}`, value, "enum");
  return currency as CardCurrency;
}

/** Where a card's purchases are booked in the ledger: the funding source, in the unit it settles in. */
export interface CardSettlement {
  source: LedgerSource;
  unit: { asset_symbol: string; decimals: number };
  chain_id: number | null;
}

/**
 * The funding source, checked to be the user's (spec 2.10): a live wallet (asked of the users
 * subgraph: WAL-404-001) holding the card currency's stablecoin in the catalogue on its chain
 * (TXN-422-002), or a linked bank account (BNK-404-001 until bank accounts exist: Bank Accounts).
 * It asks the users subgraph, so it runs outside any database transaction: on the embedded
 * database the peer's query needs the one connection a transaction would hold.
 */
export async function resolveSettlement(
  db: FinanceTx,
  users: FederatedClient,
  options: { user_id: string; funding_source: { type: CardFundingSourceType; id: string }; currency: CardCurrency; trace_id: string },
): Promise<CardSettlement> {
  const { type, id } = options.funding_source;
  if (type === "bank_account") throw appError("BNK-404-001", `Bank account ${id} was not found for this user.`);
  const walletId = /^[1-9][0-9]{0,9}$/.test(id) ? Number(id) : NaN;
  if (!Number.isSafeInteger(walletId) || walletId > 2_147_483_647) throw appError("WAL-404-001", `Wallet ${id} was not found for this user.`);
  const wallet = await findOwnedWallet(users, { user_id: options.user_id, wallet_id: walletId }, options.trace_id);
  const asset = await depositAsset(db, CARD_CURRENCIES[options.currency], wallet.chain_id);
  return { source: { kind: "wallet", id: wallet.id }, unit: { asset_symbol: asset.symbol, decimals: asset.decimals }, chain_id: wallet.chain_id };
}
