import { expect } from "vitest";
import { BANKING_SIGNATURE_HEADER, signBankingPayload } from "../../lib/webhooks/banking-signature.ts";
import { sandboxWebhookSecret } from "../../lib/webhooks/sandbox-webhook-secret.ts";
import type { FinanceDb } from "../../subgraphs/finance/db.ts";
import type { TestPlatform } from "./platform.ts";

/** Makes sure the asset catalogue holds a crypto asset with this symbol (the seeded one may not). */
export async function ensureAsset(db: FinanceDb, symbol: string, decimals: number): Promise<void> {
  const found = await db.asset.findFirst({ where: { asset_type: "crypto", symbol } });
  if (!found) await db.asset.create({ data: { id: `ast_test_${symbol.toLowerCase()}`, asset_type: "crypto", symbol, name: symbol, decimals } });
}

/** A registered user with all their wallets, `eoa` the id of the primary EOA one. */
export async function userWithAllWallets(platform: TestPlatform) {
  const user = await platform.createUser();
  const wallets = (await (await platform.api("/v0/wallets", { jwt: user.jwt })).json()).items as { id: number; type: string; address: string | null }[];
  return { ...user, wallets, eoa: wallets.find((w) => w.type === "EOA")!.id };
}

/** A sandbox deposit into the wallet (POST /v0/sandbox/deposits), which must succeed. */
export async function sandboxDeposit(platform: TestPlatform, jwt: string, wallet_id: number, asset: string, amount: string): Promise<void> {
  const response = await platform.api("/v0/sandbox/deposits", { method: "POST", jwt, json: { wallet_id, asset, amount } });
  expect(response.status).toBe(201);
}

/** A registered user with the id of their primary EOA wallet. */
export async function userWithWallet(platform: TestPlatform) {
  const user = await platform.createUser();
  const wallets = await (await platform.api("/v0/wallets", { jwt: user.jwt })).json();
  return { ...user, wallet_id: wallets.items.find((w: { type: string }) => w.type === "EOA").id as number };
}

/** A registered user whose identity verification the sandbox provider approved (what cards need). */
export async function approvedUser(platform: TestPlatform) {
  const user = await userWithWallet(platform);
  for (const [path, json] of [["/v0/kyc/access-token", undefined], ["/v0/kyc/submissions", undefined], ["/v0/kyc/sandbox/decision", { answer: "GREEN" }]] as const) {
    const response = await platform.api(path, { method: "POST", jwt: user.jwt, ...(json && { json }) });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  }
  return user;
}

/** A linked bank account as the exchange answers it. */
export interface LinkedBankAccount {
  id: string;
  name: string;
  currency: string;
  balance: string | null;
  connection_status: string;
  synced_at: number | null;
}

/** Links a sandbox institution's accounts through the widget (bank-accounts.test.ts walks each step and its errors). */
export async function linkSandboxBank(platform: TestPlatform, jwt: string, institution_id = "ins_sandbox_first"): Promise<LinkedBankAccount[]> {
  const { link_token } = await (await platform.api("/v0/open-banking/link-token", { method: "POST", jwt })).json();
  const played = await platform.api("/v0/sandbox/open-banking/link", { method: "POST", jwt, json: { link_token, institution_id } });
  if (played.status !== 201) throw new Error(`sandbox link: ${played.status} ${await played.text()}`);
  const exchanged = await platform.api("/v0/open-banking/exchange", { method: "POST", jwt, json: { public_token: (await played.json()).public_token } });
  if (exchanged.status !== 201) throw new Error(`exchange: ${exchanged.status} ${await exchanged.text()}`);
  return (await exchanged.json()).items;
}

/** The user's transaction feed (GET /v0/transactions), up to 100 items. */
export async function transactionFeed(platform: TestPlatform, jwt: string, query = "") {
  const response = await platform.api(`/v0/transactions?limit=100${query}`, { jwt });
  expect(response.status).toBe(200);
  return response.json();
}

export interface BankingDelivery {
  secret?: string;
  timestamp?: number;
  /** the signature header as sent; null leaves it out; by default signed with `secret` (the sandbox secret) */
  header?: string | null;
}

/** Delivers a banking-provider event to the platform's webhook receiver, signed. */
export function deliverBankingEvent(platform: TestPlatform, event: Record<string, unknown>, options: BankingDelivery = {}) {
  const body = JSON.stringify({ created_at: new Date().toISOString(), data: {}, ...event });
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const header = options.header === undefined ? signBankingPayload(body, [options.secret ?? sandboxWebhookSecret(undefined, "banking")], timestamp) : options.header;
  return fetch(`${platform.urls.platform}/v0/webhooks/banking-provider/events`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(header !== null && { [BANKING_SIGNATURE_HEADER]: header }) },
    body,
  });
}
