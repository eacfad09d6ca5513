import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { SANDBOX_INSTITUTIONS } from "../../../lib/contracts/bank-accounts.ts";
import { appError } from "../../../lib/errors/app-error.ts";
import type { SandboxBankSettlement, SandboxLinkOutcome, SandboxRampOutcome } from "../../../lib/vocabulary/bank-accounts.ts";
import { BANKING_SIGNATURE_HEADER, signBankingPayload } from "../../../lib/webhooks/banking-signature.ts";
import type { BankingProvider, LinkedItem, ProviderBankTransaction, RampOrder, TransactionsSyncPage } from "./banking-provider.ts";

const LINK_TOKEN_TTL_MS = 30 * 60_000;
const PUBLIC_TOKEN_TTL_MS = 30 * 60_000;
const DAY_MS = 86_400_000;

/** Where the sandbox delivers its webhooks: the platform's own banking receiver. */
export interface BankingWebhookTarget {
  /** `{SANDBOX_WEBHOOK_BASE_URL}/v0/webhooks/banking-provider/events` (PUBLIC_BASE_URL unless set) */
  url: string;
  /** sandboxWebhookSecret(INTERNAL_SECRET, "banking"), never a real provider's BANKING_WEBHOOK_SECRET */
  secret: string;
}

type LogEntry = { kind: "added" | "modified"; transaction: ProviderBankTransaction } | { kind: "removed"; transaction: ProviderBankTransaction };

interface SandboxItem {
  item_id: string;
  institution_id: string;
  linked_at: number;
}

/** A fiat decimal string ("-12.5", "840.50") in cents, exactly. */
function cents(amount: string): bigint {
  const negative = amount.startsWith("-");
  const [whole, fraction = ""] = amount.replace(/^-/, "").split(".");
  const value = BigInt(whole! + fraction.padEnd(2, "0").slice(0, 2));
  return negative ? -value : value;
}

/** The fiat fee the sandbox charges for a ramp: 1 %, at least 1.00. */
const SANDBOX_RAMP_FEES = { percent: "1", minimum: "1.00" };

/**
 * The offline provider. Link and public tokens are self-contained and signed with a key of this
 * process (a restart ends links under way, as an expiry would); that a public token links once is
 * kept by the database (`bank_connections.public_token_id` is unique). A login's history is a pure
 * function of its item id (the institution and the link time are in it), so its sync survives a
 * restart; transactions and ramps made through the sandbox helpers live in this process.
 * Every change is announced as the real providers do: a signed webhook to the platform's receiver.
 */
export class SandboxBankingProvider implements BankingProvider {
  readonly name = "sandbox";
  private readonly key = randomBytes(32);
  /** the changes made after linking (sandbox helpers), per item, in order */
  private readonly extras = new Map<string, LogEntry[]>();
  private readonly ramps = new Map<string, { order: RampOrder; provider_ramp_id: string; outcome: SandboxRampOutcome | null }>();

  constructor(
    private readonly webhook: BankingWebhookTarget,
    private readonly pageSize = 100,
  ) {}

  async createLinkToken(userId: string, now: Date) {
    const expires_at = new Date(now.getTime() + LINK_TOKEN_TTL_MS);
    return { link_token: this.sign("link-sandbox", { u: userId, exp: expires_at.getTime(), n: randomUUID() }), expires_at };
  }

  /** The widget: a link token in, a public token out (or the institution's refusal). */
  playLink(linkToken: string, institutionId: string, outcome: SandboxLinkOutcome, now: Date): { public_token: string; expires_at: Date } {
    const link = this.verify("link-sandbox", linkToken, now);
    if (!SANDBOX_INSTITUTIONS[institutionId]) throw appError("BNK-422-001");
    if (outcome === "invalid_credentials") throw appError("BNK-422-002");
    const expires_at = new Date(now.getTime() + PUBLIC_TOKEN_TTL_MS);
    return { public_token: this.sign("public-sandbox", { u: link.u, ins: institutionId, exp: expires_at.getTime(), jti: randomUUID() }), expires_at };
  }

  async exchangePublicToken(publicToken: string, userId: string, now: Date): Promise<LinkedItem> {
    const claims = this.verify("public-sandbox", publicToken, now);
    if (claims.u !== userId) throw appError("BNK-400-001");
    const institutionId = String(claims.ins);
    const institution = SANDBOX_INSTITUTIONS[institutionId]!;
    const item_id = `item-sandbox-${institutionId}-${now.getTime().toString(36)}-${randomBytes(6).toString("hex")}`;
    const mask = (index: number) => String(parseInt(String(claims.jti).replaceAll("-", "").slice(index * 4, index * 4 + 6), 16) % 10_000).padStart(4, "0");
    return {
      access_token: `access-sandbox-${item_id}.${randomBytes(16).toString("hex")}`,
      item_id,
      public_token_id: String(claims.jti),
      user_id: userId,
      institution: { id: institutionId, name: institution.name },
      accounts: institution.accounts.map(({ history: _history, ...account }, index) => ({ ...account, mask: mask(index) })),
    };
  }

  async linked(item: LinkedItem): Promise<void> {
    await this.deliver("transactions.available", { item_id: item.item_id });
  }

  async removeItem(): Promise<void> {
    // nothing is held at the sandbox bank
  }

  async syncTransactions(accessToken: string, cursor: string | null): Promise<TransactionsSyncPage> {
    const item = this.item(accessToken);
    const log = this.log(item);
    const start = cursor === null ? 0 : Number(/^v1:(\d{1,9})$/.exec(cursor)?.[1] ?? NaN);
    if (!Number.isSafeInteger(start) || start > log.length) throw appError("BNK-502-001", "The sandbox bank does not know this sync cursor.");
    const end = Math.min(log.length, start + this.pageSize);
    const page = log.slice(start, end);
    return {
      added: page.filter((entry) => entry.kind === "added").map((entry) => entry.transaction),
      modified: page.filter((entry) => entry.kind === "modified").map((entry) => entry.transaction),
      removed: page.filter((entry) => entry.kind === "removed").map(({ transaction }) => ({ provider_transaction_id: transaction.provider_transaction_id, provider_account_id: transaction.provider_account_id })),
      balances: SANDBOX_INSTITUTIONS[item.institution_id]!.accounts.map((account) => ({ provider_account_id: account.provider_account_id, balance: this.balance(item, account.provider_account_id) })),
      next_cursor: `v1:${end}`,
      has_more: end < log.length,
    };
  }

  rampFees() {
    return SANDBOX_RAMP_FEES;
  }

  async createRamp(order: RampOrder): Promise<{ provider_ramp_id: string }> {
    const known = this.ramps.get(order.ramp_id);
    if (known) return { provider_ramp_id: known.provider_ramp_id };
    const provider_ramp_id = `ramp-sandbox-${randomBytes(8).toString("hex")}`;
    this.ramps.set(order.ramp_id, { order, provider_ramp_id, outcome: null });
    return { provider_ramp_id };
  }

  async rampStored(providerRampId: string): Promise<void> {
    await this.deliver("ramp.processing", { ramp_id: providerRampId });
  }

  /**
   * The sandbox bank books a transaction on one of the login's accounts (POST /v0/sandbox/…) and
   * announces it with a `transactions.available` webhook.
   */
  async addTransaction(accessToken: string, input: Omit<ProviderBankTransaction, "provider_transaction_id" | "currency" | "date"> & { date?: Date }) {
    const item = this.item(accessToken);
    const account = this.account(item, input.provider_account_id);
    const transaction: ProviderBankTransaction = { ...input, provider_transaction_id: `btx-${randomBytes(10).toString("hex")}`, currency: account.currency, date: input.date ?? new Date() };
    this.append(item, { kind: "added", transaction });
    return { transaction, webhook_status: await this.deliver("transactions.available", { item_id: item.item_id }) };
  }

  /** The bank posts a pending transaction (optionally at another amount) or drops it; announced like addTransaction. */
  async settleTransaction(accessToken: string, providerTransactionId: string, outcome: SandboxBankSettlement, amount?: string) {
    const item = this.item(accessToken);
    const current = [...this.log(item)].reverse().find((entry) => entry.transaction.provider_transaction_id === providerTransactionId);
    if (!current || current.kind === "removed" || !current.transaction.pending) throw appError("BNK-409-001");
    const transaction = { ...current.transaction, pending: false, ...(amount !== undefined && { amount }) };
    this.append(item, outcome === "posted" ? { kind: "modified", transaction } : { kind: "removed", transaction: current.transaction });
    return { webhook_status: await this.deliver("transactions.available", { item_id: item.item_id }) };
  }

  /** Marks the login as needing a new login, or as lost, or as fine again (link.* webhooks). */
  async reportConnection(accessToken: string, type: "link.completed" | "link.failed" | "link.reauth_required") {
    const item = this.item(accessToken);
    return { webhook_status: await this.deliver(type, { item_id: item.item_id, ...(type === "link.failed" && { reason: "institution_unavailable" }) }) };
  }

  /**
   * Finishes a ramp the way the provider would: `ramp.completed` or `ramp.failed` (an on-ramp
   * larger than the bank balance fails with `insufficient_funds` whatever is asked). A completed
   * ramp also moves the money at the bank: a posted `bank_transfer` and `transactions.available`.
   */
  async settleRamp(rampId: string, outcome: SandboxRampOutcome) {
    const ramp = this.ramps.get(rampId);
    if (!ramp) throw appError("RMP-404-002", "The sandbox provider does not know this ramp (ramps live in the process that created them).");
    const { order } = ramp;
    const item = this.item(order.access_token);
    const short = order.direction === "on" && outcome === "completed" && cents(order.fiat_amount) > cents(this.balance(item, order.provider_account_id) ?? "0");
    const final = short ? "failed" : outcome;
    const statuses = [await this.deliver(`ramp.${final}`, { ramp_id: ramp.provider_ramp_id, ...(final === "failed" && { reason: short ? "insufficient_funds" : "declined_by_bank" }) })];
    if (final === "completed" && ramp.outcome === null) {
      this.append(item, {
        kind: "added",
        transaction: {
          provider_transaction_id: `btx-${createHash("sha256").update(ramp.provider_ramp_id).digest("hex").slice(0, 20)}`,
          provider_account_id: order.provider_account_id,
          amount: order.fiat_amount,
          direction: order.direction === "on" ? "out" : "in",
          currency: order.currency,
          type: "bank_transfer",
          category: null,
          description: order.direction === "on" ? `Purchase of ${order.asset_symbol}` : `Sale of ${order.asset_symbol}`,
          merchant_name: null,
          counterparty: "Sandbox Ramp",
          pending: false,
          date: new Date(),
        },
      });
      statuses.push(await this.deliver("transactions.available", { item_id: item.item_id }));
    }
    ramp.outcome ??= final;
    return { outcome: final, webhook_status: Math.max(...statuses) };
  }

  /** POSTs one signed event to the platform's receiver; answers its HTTP status (throws when it cannot be reached). */
  async deliver(type: string, data: Record<string, unknown>): Promise<number> {
    const body = JSON.stringify({ id: `evt_${randomUUID()}`, type, created_at: new Date().toISOString(), data });
    const response = await fetch(this.webhook.url, {
      method: "POST",
      headers: { "content-type": "application/json", [BANKING_SIGNATURE_HEADER]: signBankingPayload(body, [this.webhook.secret], Math.floor(Date.now() / 1000)) },
      body,
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer().catch(() => undefined);
    return response.status;
  }

  private item(accessToken: string): SandboxItem {
    const match = /^access-sandbox-(item-sandbox-([a-z_]+)-([0-9a-z]+)-[0-9a-f]+)\.[0-9a-f]+$/.exec(accessToken);
    if (!match || !SANDBOX_INSTITUTIONS[match[2]!]) throw appError("BNK-502-001", "The sandbox bank does not know this login.");
    return { item_id: match[1]!, institution_id: match[2]!, linked_at: parseInt(match[3]!, 36) };
  }

  private account(item: SandboxItem, providerAccountId: string) {
    const account = SANDBOX_INSTITUTIONS[item.institution_id]!.accounts.find((candidate) => candidate.provider_account_id === providerAccountId);
    if (!account) throw appError("BNK-404-001");
    return account;
  }

  /** The login's changes in order: its history as of linking, then what the helpers did. */
  private log(item: SandboxItem): LogEntry[] {
    const history = SANDBOX_INSTITUTIONS[item.institution_id]!.accounts.flatMap((account) =>
      account.history.map(
        (template, index): LogEntry => ({
          kind: "added",
          transaction: {
            provider_transaction_id: `btx-${createHash("sha256").update(`${item.item_id}/${account.provider_account_id}/${index}`).digest("hex").slice(0, 20)}`,
            provider_account_id: account.provider_account_id,
            amount: template.amount,
            direction: template.direction,
            currency: account.currency,
            type: template.type,
            category: template.category,
            description: template.description,
            merchant_name: template.merchant_name ?? null,
            counterparty: template.counterparty ?? null,
            pending: template.pending ?? false,
            date: new Date(item.linked_at - template.days_ago * DAY_MS),
          },
        }),
      ),
    );
    return [...history, ...(this.extras.get(item.item_id) ?? [])];
  }

  private append(item: SandboxItem, entry: LogEntry): void {
    this.extras.set(item.item_id, [...(this.extras.get(item.item_id) ?? []), entry]);
  }

  /** The linked balance moved by the posted transactions made after linking (the history is already in it). */
  private balance(item: SandboxItem, providerAccountId: string): string | null {
    const account = this.account(item, providerAccountId);
    if (account.balance === null) return null;
    const latest = new Map<string, LogEntry>();
    for (const entry of this.extras.get(item.item_id) ?? []) latest.set(entry.transaction.provider_transaction_id, entry);
    let total = cents(account.balance);
    for (const entry of latest.values()) {
      if (entry.kind === "removed" || entry.transaction.pending || entry.transaction.provider_account_id !== providerAccountId) continue;
      total += entry.transaction.direction === "in" ? cents(entry.transaction.amount) : -cents(entry.transaction.amount);
    }
    const sign = total < 0n ? "-" : "";
    const digits = (total < 0n ? -total : total).toString().padStart(3, "0");
    return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
  }

  private sign(prefix: string, claims: Record<string, unknown>): string {
    const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
    return `${prefix}-${body}.${createHmac("sha256", this.key).update(`${prefix}.${body}`).digest("base64url")}`;
  }

  private verify(prefix: string, token: string, now: Date): Record<string, unknown> {
    const match = new RegExp(`^${prefix}-([A-Za-z0-9_-]+)\\.([A-Za-z0-9_-]+)$`).exec(token);
    if (!match) throw appError("BNK-400-001");
    const expected = createHmac("sha256", this.key).update(`${prefix}.${match[1]}`).digest();
    const given = Buffer.from(match[2]!, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw appError("BNK-400-001");
    const claims = JSON.parse(Buffer.from(match[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
    if (typeof claims.exp !== "number" || claims.exp <= now.getTime()) throw appError("BNK-400-001");
    return claims;
  }
}
