import { createHash, randomBytes } from "node:crypto";
import type { AutomationFinance, ExternalMovement } from "../../../lib/automation-finance.ts";
import { appError } from "../../../lib/errors/app-error.ts";

/** What a sync runs with: the user, where an export stopped last time, and finance to read from. */
export interface SyncContext {
  user_id: string;
  exported_through: Date | null;
  now: Date;
  finance: AutomationFinance;
  trace_id: string;
}

/** An inbound service reports movements for the ledger; an outbound one takes the ledger's and says how far it got. */
export type SyncOutcome = { movements: ExternalMovement[] } | { exported: number; through: Date | null };

/** An outside service a connector reaches. */
export interface ConnectorProvider {
  /**
   * The secret kept (sealed) for the connection: the credentials as given, or the tokens an
   * authorization code is exchanged for. CON-422-001 when the service refuses them.
   */
  authorize(input: { credentials: Record<string, unknown> | null; code: string | null }): Promise<Record<string, unknown>>;
  /** throws (anything) when the service refuses the connection now */
  sync(secret: Record<string, unknown>, context: SyncContext): Promise<SyncOutcome>;
}

const KEY = /^sbx_[A-Za-z0-9]{8,64}$/;
const CODE = /^sbx_code_[A-Za-z0-9]{6,64}$/;

/**
 * The sandbox exchange, offline: an API key `sbx_…` (8+ letters or digits) and a secret of 16+
 * characters. Its account's history is a pure function of the key (two deposits and a trade), so a
 * repeated sync reports the same movements with the same ids. A key beginning `sbx_revoked` is
 * accepted at connect time and refused by every sync after, as a key revoked at the exchange.
 */
export class SandboxExchange implements ConnectorProvider {
  async authorize({ credentials }: { credentials: Record<string, unknown> | null }) {
    if (!credentials || typeof credentials.api_key !== "string" || !KEY.test(credentials.api_key) || typeof credentials.api_secret !== "string" || credentials.api_secret.length < 16)
      throw appError("CON-422-001", "The sandbox exchange wants credentials: an api_key sbx_… (8+ letters or digits) and an api_secret of 16+ characters.");
    return { api_key: credentials.api_key, api_secret: credentials.api_secret };
  }

  async sync(secret: Record<string, unknown>, { now }: SyncContext): Promise<SyncOutcome> {
    const key = String(secret.api_key);
    if (key.startsWith("sbx_revoked")) throw new Error("The exchange refused the API key: it was revoked.");
    const id = (n: number) => `sbxex-${createHash("sha256").update(`${key}/${n}`).digest("hex").slice(0, 16)}`;
    const day = 86_400_000;
    const at = (daysAgo: number) => new Date(Math.floor(now.getTime() / day) * day - daysAgo * day);
    return {
      movements: [
        { external_id: id(1), type: "deposit", direction: "in", asset: "USDC", amount: "1500", timestamp: at(20), description: "Deposit" },
        { external_id: id(2), type: "deposit", direction: "in", asset: "ETH", amount: "0.5", timestamp: at(15), description: "Deposit" },
        { external_id: id(3), type: "swap", direction: "out", asset: "USDC", amount: "300", timestamp: at(5), description: "Trade: buy ETH" },
        { external_id: id(4), type: "swap", direction: "in", asset: "ETH", amount: "0.1", timestamp: at(5), description: "Trade: buy ETH" },
      ],
    };
  }
}

/** What each outbound sandbox service takes of the ledger. */
const EXPORTED_TYPES: Record<"accounting" | "tax", ((type: string) => boolean)> = {
  accounting: () => true,
  tax: (type) => ["swap", "on_ramp", "off_ramp", "interest", "fee"].includes(type),
};

/**
 * A sandbox bookkeeping or tax service, offline: it connects with an authorization code
 * `sbx_code_…` (OAuth's code flow: the code is exchanged once for an access token, which is what
 * is kept; `sbx_code_denied…` is refused) and each sync exports the ledger's transactions recorded
 * since the last one (the tax service only its taxable events) into the books it keeps per token.
 */
export class SandboxExport implements ConnectorProvider {
  private readonly books = new Map<string, Set<string>>();

  constructor(private readonly kind: "accounting" | "tax") {}

  async authorize({ code }: { code: string | null }) {
    if (!code || !CODE.test(code) || code.startsWith("sbx_code_denied"))
      throw appError("CON-422-001", "The sandbox service wants an authorization code sbx_code_… (6+ letters or digits) from its consent screen.");
    return { access_token: `sbxat_${randomBytes(16).toString("hex")}`, granted_at: Date.now() };
  }

  async sync(secret: Record<string, unknown>, context: SyncContext): Promise<SyncOutcome> {
    const token = String(secret.access_token);
    const entries = await context.finance.transactionsAfter(context.user_id, context.exported_through, 500, context.trace_id);
    const book = this.books.get(token) ?? new Set<string>();
    this.books.set(token, book);
    let exported = 0;
    for (const entry of entries) {
      if (!EXPORTED_TYPES[this.kind](entry.type) || book.has(entry.id)) continue;
      book.add(entry.id);
      exported++;
    }
    return { exported, through: entries.length > 0 ? new Date(entries.at(-1)!.created_at) : context.exported_through };
  }
}
