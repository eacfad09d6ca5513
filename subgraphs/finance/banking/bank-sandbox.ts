import { appError } from "../../../lib/errors/app-error.ts";
import { BANK_TRANSACTION_TYPES, SANDBOX_BANK_SETTLEMENTS, SANDBOX_CONNECTION_EVENTS, SANDBOX_RAMP_OUTCOMES } from "../../../lib/vocabulary/bank-accounts.ts";
import { SPENDING_CATEGORIES, TRANSACTION_DIRECTIONS } from "../../../lib/vocabulary/transactions.ts";
import { requireOneOf } from "../../../lib/vocabulary/values.ts";
import { requireSandbox } from "../../../lib/sandbox.ts";
import type { FinanceServices } from "../services.ts";
import { parseAmount } from "../transactions/amount.ts";
import { requireBanking } from "./bank-accounts.ts";
import { SandboxBankingProvider } from "./sandbox-banking-provider.ts";

type SandboxServices = Pick<FinanceServices, "db" | "banking" | "cardCipher" | "sandbox">;

export interface SandboxDelivery {
  webhook_status: number;
  transaction_id: string | null;
  outcome: string | null;
}

/** The sandbox provider, in sandbox mode only (GEN-404-001 otherwise: the helpers do not exist). */
export function sandboxProvider(services: Pick<FinanceServices, "banking" | "sandbox">): SandboxBankingProvider {
  requireSandbox(services);
  const provider = requireBanking(services.banking);
  if (!(provider instanceof SandboxBankingProvider)) throw appError("GEN-404-001");
  return provider;
}

/** The user's linked account and its login's access token, opened for the sandbox bank. */
async function sandboxAccount(services: SandboxServices, userId: string, bankAccountId: string) {
  const account = await services.db.bankAccount.findFirst({ where: { id: bankAccountId, user_id: userId, unlinked_at: null }, include: { connection: true } });
  if (!account) throw appError("BNK-404-001");
  return { account, access_token: services.cardCipher.open(account.connection.access_token_sealed) };
}

/** Each helper's webhook must have been handled: anything but 200 means the platform did not take the event. */
function delivered(status: number): number {
  if (status !== 200) throw appError("BNK-502-001", `The platform's banking webhook receiver answered ${status} to the sandbox provider's delivery.`);
  return status;
}

async function ledgerId(services: SandboxServices, bankAccountId: string, providerTransactionId: string): Promise<string | null> {
  const row = await services.db.transaction.findUnique({ where: { bank_account_id_provider_transaction_id: { bank_account_id: bankAccountId, provider_transaction_id: providerTransactionId } }, select: { id: true } });
  return row?.id ?? null;
}

export interface SandboxBankTransactionInput {
  amount: string;
  direction: string;
  type: string;
  description: string;
  category?: string | null;
  merchant_name?: string | null;
  counterparty?: string | null;
  pending?: boolean | null;
}

/** The sandbox bank books a transaction on the account and announces it; the platform syncs it before this answers. */
export async function sandboxBankTransaction(services: SandboxServices, userId: string, bankAccountId: string, input: SandboxBankTransactionInput): Promise<SandboxDelivery> {
  const provider = sandboxProvider(services);
  const { account, access_token } = await sandboxAccount(services, userId, bankAccountId);
  const added = await provider.addTransaction(access_token, {
    provider_account_id: account.provider_account_id,
    amount: parseAmount(input.amount, 2, ["amount"]),
    direction: requireOneOf(TRANSACTION_DIRECTIONS, input.direction, ["direction"]),
    type: requireOneOf(BANK_TRANSACTION_TYPES, input.type, ["type"]),
    category: input.category == null ? null : requireOneOf(SPENDING_CATEGORIES, input.category, ["category"]),
    description: input.description,
    merchant_name: input.merchant_name ?? null,
    counterparty: input.counterparty ?? null,
    pending: input.pending ?? false,
  });
  return { webhook_status: delivered(added.webhook_status), transaction_id: await ledgerId(services, account.id, added.transaction.provider_transaction_id), outcome: null };
}

/** The sandbox bank posts (optionally at another amount) or drops one of the account's pending transactions. */
export async function sandboxSettleBankTransaction(services: SandboxServices, userId: string, transactionId: string, outcome: string, amount: string | null): Promise<SandboxDelivery> {
  const provider = sandboxProvider(services);
  const settlement = requireOneOf(SANDBOX_BANK_SETTLEMENTS, outcome, ["outcome"]);
  const row = await services.db.transaction.findFirst({ where: { id: transactionId, user_id: userId, provider_transaction_id: { not: null } }, select: { bank_account_id: true, provider_transaction_id: true } });
  if (!row) throw appError("TXN-404-001");
  const { access_token } = await sandboxAccount(services, userId, row.bank_account_id!);
  const settled = await provider.settleTransaction(access_token, row.provider_transaction_id!, settlement, amount === null ? undefined : parseAmount(amount, 2, ["amount"]));
  return { webhook_status: delivered(settled.webhook_status), transaction_id: transactionId, outcome: settlement };
}

/** The sandbox provider reports on the account's login (link.completed, link.failed, link.reauth_required). */
export async function sandboxConnectionEvent(services: SandboxServices, userId: string, bankAccountId: string, type: string): Promise<SandboxDelivery> {
  const provider = sandboxProvider(services);
  const event = requireOneOf(SANDBOX_CONNECTION_EVENTS, type, ["event"]);
  const { access_token } = await sandboxAccount(services, userId, bankAccountId);
  const reported = await provider.reportConnection(access_token, event);
  return { webhook_status: delivered(reported.webhook_status), transaction_id: null, outcome: null };
}

/** The sandbox provider finishes one of the user's ramps (ramp.completed or ramp.failed, by webhook). */
export async function sandboxSettleRamp(services: SandboxServices, userId: string, rampId: string, outcome: string): Promise<SandboxDelivery> {
  const provider = sandboxProvider(services);
  const wanted = requireOneOf(SANDBOX_RAMP_OUTCOMES, outcome, ["outcome"]);
  const ramp = await services.db.ramp.findFirst({ where: { id: rampId, user_id: userId }, select: { id: true, transaction_id: true } });
  if (!ramp) throw appError("RMP-404-002");
  const settled = await provider.settleRamp(ramp.id, wanted);
  return { webhook_status: delivered(settled.webhook_status), transaction_id: ramp.transaction_id, outcome: settled.outcome };
}
