import { appError } from "../../../lib/errors/app-error.ts";
import type { CardDataCipher } from "../../../lib/crypto/card-data-cipher.ts";
import { newId } from "../../../lib/ids.ts";
import { Prisma, type FinanceDb, type FinanceTx } from "../db.ts";
import { emitEvent } from "../outbox/outgoing-events.ts";
import type { EventPayload } from "../../../lib/contracts/events.ts";
import type { BankConnectionStatus } from "../../../lib/vocabulary/bank-accounts.ts";
import type { Logger } from "../../../lib/logger.ts";
import type { BankingProvider } from "./banking-provider.ts";

/** The configured provider, else BNK-503-001. */
export function requireBanking(provider: BankingProvider | undefined): BankingProvider {
  if (!provider) throw appError("BNK-503-001");
  return provider;
}

const WITH_CONNECTION = { connection: { select: { institution_id: true, institution_name: true, status: true, synced_at: true } } } as const;
type AccountRow = Prisma.BankAccountGetPayload<{ include: typeof WITH_CONNECTION }>;

/** A bank account as the API shows it: the institution and the connection's status folded in, never a token. */
export function bankAccountView(row: AccountRow) {
  return {
    id: row.id,
    institution_id: row.connection.institution_id,
    institution_name: row.connection.institution_name,
    name: row.name,
    account_type: row.account_type,
    currency: row.currency,
    mask: row.mask,
    balance: row.balance === null ? null : row.balance.toFixed(2),
    connection_status: row.connection.status,
    synced_at: row.connection.synced_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type BankAccountView = ReturnType<typeof bankAccountView>;

/** A bank account as its outgoing events carry it (lib/contracts/events.ts). */
function bankAccountEventData(row: AccountRow): EventPayload<"bank_account.linked"> {
  const { synced_at: _synced, updated_at: _updated, ...view } = bankAccountView(row);
  return { ...view, user_id: row.user_id, created_at: row.created_at.getTime() };
}

/**
 * Writes bank_account.login_required for each linked account of a connection whose bank asked for
 * a new login (it moved from `previous` to reauth_required), in the move's database transaction.
 */
export async function emitLoginRequired(tx: FinanceTx, connectionId: string, previous: BankConnectionStatus): Promise<void> {
  const accounts = await tx.bankAccount.findMany({ where: { connection_id: connectionId, unlinked_at: null }, include: WITH_CONNECTION, orderBy: { id: "asc" } });
  for (const row of accounts)
    await emitEvent(tx, { type: "bank_account.login_required", user_id: row.user_id, resource: { type: "bank_account", id: row.id }, data: { ...bankAccountEventData(row), previous_connection_status: previous } });
}

/**
 * Exchanges the widget's public token for the login's accounts and stores them, the access token
 * sealed, each with its bank_account.linked event. A public token links once: a second exchange
 * (also a concurrent one) is BNK-400-001.
 */
export async function linkBankAccounts(
  db: FinanceDb,
  provider: BankingProvider,
  cipher: CardDataCipher,
  options: { user_id: string; public_token: string; now?: Date; logger: Pick<Logger, "warn"> },
): Promise<BankAccountView[]> {
  const item = await provider.exchangePublicToken(options.public_token, options.user_id, options.now ?? new Date());
  let linked: BankAccountView[];
  try {
    linked = await db.$transaction(async (tx) => {
      const connection = await tx.bankConnection.create({
        data: {
          id: newId("bcn"),
          user_id: options.user_id,
          provider: provider.name,
          institution_id: item.institution.id,
          institution_name: item.institution.name,
          public_token_id: item.public_token_id,
          provider_item_id: item.item_id,
          access_token_sealed: cipher.seal(item.access_token),
          status: "active",
        },
      });
      const accounts = [];
      for (const account of item.accounts) {
        const row = await tx.bankAccount.create({
          data: { id: newId("bnk"), user_id: options.user_id, connection_id: connection.id, ...account, balance: account.balance },
          include: WITH_CONNECTION,
        });
        await emitEvent(tx, { type: "bank_account.linked", user_id: row.user_id, resource: { type: "bank_account", id: row.id }, data: bankAccountEventData(row) });
        accounts.push(row);
      }
      return accounts.map(bankAccountView);
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      await provider.removeItem(item.access_token);
      throw appError("BNK-400-001");
    }
    throw error;
  }
  // the accounts are linked whatever happens to the first sync; its webhook can be sent again
  await provider.linked?.(item).catch((error: unknown) => options.logger.warn({ err: error, item_id: item.item_id }, "bank linking: the provider's first transactions announcement failed"));
  return (await listBankAccounts(db, options.user_id)).filter((account) => linked.some((made) => made.id === account.id));
}

export async function listBankAccounts(db: FinanceDb, userId: string): Promise<BankAccountView[]> {
  const rows = await db.bankAccount.findMany({ where: { user_id: userId, unlinked_at: null }, include: WITH_CONNECTION, orderBy: [{ created_at: "asc" }, { id: "asc" }] });
  return rows.map(bankAccountView);
}

/** The user's linked account; another user's, an unlinked one or none: BNK-404-001. */
export async function getBankAccount(db: FinanceDb, userId: string, id: string): Promise<BankAccountView> {
  const row = await db.bankAccount.findFirst({ where: { id, user_id: userId, unlinked_at: null }, include: WITH_CONNECTION });
  if (!row) throw appError("BNK-404-001");
  return bankAccountView(row);
}

/**
 * Unlinks an account: it leaves the list and stops syncing, its past transactions stay in the
 * feed; its bank_account.unlinked event is written with it. The login is revoked at the provider
 * once none of its accounts is linked any more.
 */
export async function unlinkBankAccount(db: FinanceDb, provider: BankingProvider | undefined, cipher: CardDataCipher, options: { user_id: string; id: string; now?: Date }): Promise<BankAccountView> {
  const now = options.now ?? new Date();
  const { account, revoke } = await db.$transaction(async (tx) => {
    const found = await tx.bankAccount.findFirst({ where: { id: options.id, user_id: options.user_id, unlinked_at: null } });
    if (!found) throw appError("BNK-404-001");
    const account = await tx.bankAccount.update({ where: { id: found.id }, data: { unlinked_at: now }, include: WITH_CONNECTION });
    const remaining = await tx.bankAccount.count({ where: { connection_id: found.connection_id, unlinked_at: null } });
    const connection = remaining > 0 ? null : await tx.bankConnection.update({ where: { id: found.connection_id }, data: { status: "revoked" } });
    const unlinked = connection ? { ...account, connection: { ...account.connection, status: connection.status } } : account;
    await emitEvent(tx, { type: "bank_account.unlinked", user_id: found.user_id, resource: { type: "bank_account", id: found.id }, data: { ...bankAccountEventData(unlinked), unlinked_at: now.getTime() } });
    return { account: unlinked, revoke: connection };
  });
  // told after the commit: a provider that cannot be reached leaves a revoked row and a dangling login, never the reverse
  if (revoke && provider) await provider.removeItem(cipher.open(revoke.access_token_sealed));
  return bankAccountView(account);
}
