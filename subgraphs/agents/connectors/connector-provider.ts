import { createHash } from "node:crypto";
import type { ExternalMovement } from "../../../lib/automation-finance.ts";
import { appError } from "../../../lib/errors/app-error.ts";

/** An outside service a connector reaches: checks credentials, and reports what the account did. */
export interface ConnectorProvider {
  /** CON-422-001 for credentials the service refuses */
  verify(credentials: Record<string, unknown>): void;
  /** the account's movements; throws (anything) when the service refuses the credentials now */
  fetch(credentials: Record<string, unknown>, now: Date): Promise<ExternalMovement[]>;
}

const KEY = /^sbx_[A-Za-z0-9]{8,64}$/;

/**
 * The sandbox exchange, offline: an API key `sbx_…` (8+ letters or digits) and a secret of 16+
 * characters. Its account's history is a pure function of the key (two deposits and a trade), so a
 * repeated sync reports the same movements with the same ids. A key beginning `sbx_revoked` is
 * accepted at connect time and refused by every sync after, as a key revoked at the exchange.
 */
export class SandboxExchange implements ConnectorProvider {
  verify(credentials: Record<string, unknown>): void {
    if (typeof credentials.api_key !== "string" || !KEY.test(credentials.api_key) || typeof credentials.api_secret !== "string" || credentials.api_secret.length < 16)
      throw appError("CON-422-001", "The sandbox exchange wants an api_key sbx_… (8+ letters or digits) and an api_secret of 16+ characters.");
  }

  async fetch(credentials: Record<string, unknown>, now: Date): Promise<ExternalMovement[]> {
    const key = String(credentials.api_key);
    if (key.startsWith("sbx_revoked")) throw new Error("The exchange refused the API key: it was revoked.");
    const id = (n: number) => `sbxex-${createHash("sha256").update(`${key}/${n}`).digest("hex").slice(0, 16)}`;
    const day = 86_400_000;
    const at = (daysAgo: number) => new Date(Math.floor(now.getTime() / day) * day - daysAgo * day);
    return [
      { external_id: id(1), type: "deposit", direction: "in", asset: "USDC", amount: "1500", timestamp: at(20), description: "Deposit" },
      { external_id: id(2), type: "deposit", direction: "in", asset: "ETH", amount: "0.5", timestamp: at(15), description: "Deposit" },
      { external_id: id(3), type: "swap", direction: "out", asset: "USDC", amount: "300", timestamp: at(5), description: "Trade: buy ETH" },
      { external_id: id(4), type: "swap", direction: "in", asset: "ETH", amount: "0.1", timestamp: at(5), description: "Trade: buy ETH" },
    ];
  }
}
