import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { appError } from "../../../lib/errors/app-error.ts";
import type { BankingProvider, LinkedItem, ProviderBankAccount } from "./banking-provider.ts";

const LINK_TOKEN_TTL_MS = 30 * 60_000;
const PUBLIC_TOKEN_TTL_MS = 30 * 60_000;

/** The sandbox's institutions and the accounts a login there has. */
export const SANDBOX_INSTITUTIONS: Record<string, { name: string; accounts: Omit<ProviderBankAccount, "mask">[] }> = {
  ins_sandbox_first: {
    name: "First Sandbox Bank",
    accounts: [
      { provider_account_id: "chk", name: "Everyday Checking", account_type: "checking", currency: "USD", balance: "1250.00" },
      { provider_account_id: "sav", name: "Rainy Day Savings", account_type: "savings", currency: "USD", balance: "5000.00" },
    ],
  },
  ins_sandbox_euro: {
    name: "Euro Sandbox Bank",
    accounts: [{ provider_account_id: "giro", name: "Girokonto", account_type: "checking", currency: "EUR", balance: "840.50" }],
  },
};

/** How the sandbox's widget ends: the user logs in, or the bank refuses the credentials. */
export const SANDBOX_LINK_OUTCOMES = ["success", "invalid_credentials"] as const;
export type SandboxLinkOutcome = (typeof SANDBOX_LINK_OUTCOMES)[number];

/**
 * The offline provider. Its tokens are self-contained and signed with a key of this process
 * (a restart ends links under way, as an expiry would); that a public token links once is kept by
 * the database (`bank_connections.public_token_id` is unique). `playLink` plays the widget.
 */
export class SandboxBankingProvider implements BankingProvider {
  readonly name = "sandbox";
  private readonly key = randomBytes(32);

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
    const institution = SANDBOX_INSTITUTIONS[claims.ins as string]!;
    const mask = (index: number) => String(parseInt(String(claims.jti).replaceAll("-", "").slice(index * 4, index * 4 + 6), 16) % 10_000).padStart(4, "0");
    return {
      access_token: `access-sandbox-${randomBytes(16).toString("hex")}`,
      public_token_id: String(claims.jti),
      user_id: userId,
      institution: { id: String(claims.ins), name: institution.name },
      accounts: institution.accounts.map((account, index) => ({ ...account, mask: mask(index) })),
    };
  }

  async removeItem(): Promise<void> {
    // nothing is held at the sandbox bank
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
