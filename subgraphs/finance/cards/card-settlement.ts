import { appError, validationError } from "../../../lib/errors/app-error.ts";
import type { FederatedClient } from "../../../lib/graphql/federated-client.ts";
import type { FinanceTx } from "../db.ts";
import type { CardView } from "./card-view.ts";
import { depositAsset } from "../transactions/deposit-asset.ts";
import type { LedgerSource } from "../transactions/ledger-source.ts";
import type { MovementUnit } from "../transactions/record-movement.ts";
import { findOwnedWallet, requireProvenWallet } from "../../../lib/owned-wallet.ts";

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

/** Where a card's purchases are booked in the ledger: the funding source, in the unit it settles in (a wallet's stablecoin, a bank account's currency). */
export interface CardSettlement {
  source: LedgerSource;
  unit: MovementUnit;
  chain_id: number | null;
}

/**
 * The user's linked bank account in the card's currency: not unlinked and its login not revoked
 * (BNK-404-001 otherwise, as for another user's); an account in another currency is 422 at
 * `loc`, since the bank would have to convert every purchase. It settles in its own currency, in cents.
 */
async function bankSettlement(db: FinanceTx, options: { user_id: string; id: string; currency: CardCurrency; loc: (string | number)[] }): Promise<CardSettlement> {
  const account = await db.bankAccount.findFirst({ where: { id: options.id, user_id: options.user_id, unlinked_at: null, connection: { status: { not: "revoked" } } }, select: { id: true, currency: true } });
  if (!account) throw appError("BNK-404-001", `Bank account ${options.id} was not found for this user.`);
  if (account.currency !== options.currency)
    throw validationError(options.loc, `The bank account is in ${account.currency}; a ${options.currency} card needs a bank account in ${options.currency}`, options.id, "value_error", { account_currency: account.currency, card_currency: options.currency });
  return { source: { kind: "bank_account", id: account.id }, unit: { currency: account.currency, decimals: CARD_DECIMALS }, chain_id: null };
}

/**
 * The funding source, checked to be the user's (spec 2.10): a live wallet (asked of the users
 * subgraph: WAL-404-001) whose address is proven (WAL-403-001) holding the card currency's stablecoin in the catalogue on its chain
 * (TXN-422-002), or a linked bank account in the card's currency (bankSettlement; `id_loc` names
 * the funding source's id in the request for its currency mismatch). It asks the users subgraph,
 * so it runs outside any database transaction: on the embedded database the peer's query needs
 * the one connection a transaction would hold.
 */
export async function resolveSettlement(
  db: FinanceTx,
  users: FederatedClient,
  options: { user_id: string; funding_source: CardView["funding_source"]; currency: CardCurrency; trace_id: string; id_loc: (string | number)[] },
): Promise<CardSettlement> {
  const { type, id } = options.funding_source;
  if (type === "bank_account") return bankSettlement(db, { user_id: options.user_id, id, currency: options.currency, loc: options.id_loc });
  const walletId = /^[1-9][0-9]{0,9}$/.test(id) ? Number(id) : NaN;
  if (!Number.isSafeInteger(walletId) || walletId > 2_147_483_647) throw appError("WAL-404-001", `Wallet ${id} was not found for this user.`);
  const wallet = await findOwnedWallet(users, { user_id: options.user_id, wallet_id: walletId }, options.trace_id);
  requireProvenWallet(wallet, "fund a card");
  const asset = await depositAsset(db, CARD_CURRENCIES[options.currency], wallet.chain_id);
  return { source: { kind: "wallet", id: wallet.id }, unit: { asset_symbol: asset.symbol, decimals: asset.decimals }, chain_id: wallet.chain_id };
}
