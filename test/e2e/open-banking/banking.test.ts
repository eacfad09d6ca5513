import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import { BANKING_SIGNATURE_HEADER, signBankingPayload } from "../../../lib/webhooks/banking-signature.ts";
import { sandboxWebhookSecret } from "../../../lib/webhooks/sandbox-webhook-secret.ts";
import { BANKING_WEBHOOK_SIGNATURE_DETAIL } from "../../../rest-adapter/webhooks/banking-provider-events.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { deliverBankingEvent, linkSandboxBank, transactionFeed, type BankingDelivery } from "../../support/finance.ts";
import { statusAndCode as problem } from "../../support/route-cases.ts";

// Issue 12: bank transactions synced by cursor, the banking-provider webhook receiver (signature,
// rotation, tolerance, exactly-once) and connection status; on/off-ramps driven by its events are in
// ramp.test.ts.
const OLD_SECRET = "bank-old-secret-for-rotation";
const NEW_SECRET = "bank-new-secret-for-rotation";
let platform: TestPlatform;
let db: FinanceDb;

beforeAll(async () => {
  platform = await startTestPlatform({ BANKING_WEBHOOK_SECRET: `${OLD_SECRET}, ${NEW_SECRET}` });
  db = (platform.subgraphs.finance as any).services.db;
});
afterAll(() => platform?.stop());

/** Links First Sandbox Bank for the user; answers [checking, savings], already synced. */
const linkBank = (jwt: string) => linkSandboxBank(platform, jwt);

const feed = (jwt: string, query = "") => transactionFeed(platform, jwt, query);
const deliver = (event: Record<string, unknown>, options: BankingDelivery = {}) => deliverBankingEvent(platform, event, options);

const itemOf = async (bankAccountId: string) => (await db.bankAccount.findUniqueOrThrow({ where: { id: bankAccountId }, include: { connection: true } })).connection.provider_item_id;

describe("transactions sync", () => {
  it("syncs the login's history on linking: bank types with categories, pending ones pending, in the feed, its meta and per account", async () => {
    const { jwt } = await platform.createUser();
    const [checking, savings] = await linkBank(jwt);
    expect(checking!.synced_at).toEqual(expect.any(Number));
    const { items, meta } = await feed(jwt, "&meta=true");
    expect(items).toHaveLength(9);
    expect(new Set(items.map((t: { type: string }) => t.type))).toEqual(new Set(["bank_transfer", "standing_order", "direct_debit", "bank_payment", "bank_refund", "fee", "interest"]));
    const dinner = items.find((t: { description: string }) => t.description === "Dinner");
    expect(dinner).toMatchObject({ type: "bank_payment", status: "pending", direction: "out", amount: "38.5", currency: "USD", category: "restaurants", bank_account_id: checking!.id, merchant: { name: "Trattoria Roma", mcc: null } });
    expect(items.find((t: { description: string }) => t.description === "Rent")).toMatchObject({ type: "standing_order", status: "completed", category: "utilities" });
    expect(meta.transaction_count).toBe(9);
    expect(meta.cashflow.gross_in).toBe("2667.16");

    expect((await feed(jwt, "&type=bank_transfer")).items).toHaveLength(2);
    const savingsFeed = await feed(jwt, `&bank_account_id=${savings!.id}&meta=true`);
    expect(savingsFeed.items.map((t: { type: string }) => t.type).sort()).toEqual(["bank_transfer", "interest"]);
    expect(savingsFeed.meta.transaction_count).toBe(2);

    const graphql = await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": jwt },
      body: JSON.stringify({ query: `{ me { bank_accounts { id synced_at transactions(page: { limit: 3 }) { items { type } pagination { total } } } } }` }),
    });
    const { data, errors } = await graphql.json();
    expect(errors).toBeUndefined();
    expect(data.me.bank_accounts.map((a: any) => a.transactions.pagination.total)).toEqual([7, 2]);
  });

  it("never books a transaction twice: a redelivered announcement and a rewound cursor change nothing", async () => {
    const { jwt } = await platform.createUser();
    const [checking] = await linkBank(jwt);
    const before = (await feed(jwt)).items.length;
    const item_id = await itemOf(checking!.id);
    const statuses = await Promise.all([1, 2, 3].map((n) => deliver({ id: `evt_resync_${item_id}_${n}`, type: "transactions.available", data: { item_id } })));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200]);
    await db.bankConnection.updateMany({ where: { provider_item_id: item_id }, data: { sync_cursor: null } });
    expect((await deliver({ id: `evt_rewound_${item_id}`, type: "transactions.available", data: { item_id } })).status).toBe(200);
    expect((await feed(jwt)).items.length).toBe(before);
  });

  it("books new bank transactions, posts pending ones (at the amount the bank settled) and fails removed ones, every step in status_history", async () => {
    const { jwt } = await platform.createUser();
    const [checking] = await linkBank(jwt);
    const added = await platform.api(`/v0/sandbox/bank-accounts/${checking!.id}/transactions`, {
      method: "POST",
      jwt,
      json: { amount: "42.10", direction: "out", type: "direct_debit", description: "Gym", category: "health", pending: true },
    });
    expect(added.status).toBe(201);
    const { transaction_id } = await added.json();
    const gym = await (await platform.api(`/v0/transactions/${transaction_id}`, { jwt })).json();
    expect(gym).toMatchObject({ type: "direct_debit", status: "pending", amount: "42.1", category: "health" });

    const posted = await platform.api(`/v0/sandbox/transactions/${transaction_id}/bank-settlement`, { method: "POST", jwt, json: { outcome: "posted", amount: "45.00" } });
    expect(posted.status).toBe(200);
    const settled = await (await platform.api(`/v0/transactions/${transaction_id}`, { jwt })).json();
    expect(settled).toMatchObject({ status: "completed", amount: "45" });
    expect(settled.status_history.map((h: { to: string }) => h.to)).toEqual(["pending", "processing", "completed"]);
    expect(await problem(await platform.api(`/v0/sandbox/transactions/${transaction_id}/bank-settlement`, { method: "POST", jwt, json: { outcome: "removed" } }))).toEqual({ status: 409, code: "BNK-409-001" });

    const dinner = (await feed(jwt)).items.find((t: { description: string }) => t.description === "Dinner");
    expect((await platform.api(`/v0/sandbox/transactions/${dinner.id}/bank-settlement`, { method: "POST", jwt, json: { outcome: "removed" } })).status).toBe(200);
    const removed = await (await platform.api(`/v0/transactions/${dinner.id}`, { jwt })).json();
    expect(removed.status).toBe("failed");
    expect((await feed(jwt)).items.filter((t: { description: string }) => t.description === "Dinner")).toHaveLength(1);
  });

  it("stops syncing an unlinked account and keeps its past transactions in the feed", async () => {
    const { jwt } = await platform.createUser();
    const [checking, savings] = await linkBank(jwt);
    const before = (await feed(jwt, `&bank_account_id=${checking!.id}`)).items.length;
    expect((await platform.api(`/v0/bank-accounts/${checking!.id}`, { method: "DELETE", jwt })).status).toBe(200);
    expect((await feed(jwt, `&bank_account_id=${checking!.id}`)).items.length).toBe(before);
    // the savings account still syncs; the sandbox refuses helpers on the unlinked one
    expect((await platform.api(`/v0/sandbox/bank-accounts/${savings!.id}/transactions`, { method: "POST", jwt, json: { amount: "1.00", direction: "in", type: "interest", description: "Bonus" } })).status).toBe(201);
    expect(await problem(await platform.api(`/v0/sandbox/bank-accounts/${checking!.id}/transactions`, { method: "POST", jwt, json: { amount: "1.00", direction: "in", type: "interest", description: "Bonus" } }))).toEqual({ status: 404, code: "BNK-404-001" });
  });

  it("answers 404 for another user's bank account or transaction in the sandbox helpers", async () => {
    const owner = await platform.createUser();
    const stranger = await platform.createUser();
    const [checking] = await linkBank(owner.jwt);
    const one = (await feed(owner.jwt)).items[0];
    expect(await problem(await platform.api(`/v0/sandbox/bank-accounts/${checking!.id}/transactions`, { method: "POST", jwt: stranger.jwt, json: { amount: "1.00", direction: "in", type: "interest", description: "x" } }))).toEqual({ status: 404, code: "BNK-404-001" });
    expect(await problem(await platform.api(`/v0/sandbox/transactions/${one.id}/bank-settlement`, { method: "POST", jwt: stranger.jwt, json: { outcome: "posted" } }))).toEqual({ status: 404, code: "TXN-404-001" });
    expect((await feed(stranger.jwt, `&bank_account_id=${checking!.id}`)).items).toEqual([]);
  });
});

describe("the banking-provider webhook receiver", () => {
  it("refuses unsigned, forged, stale and future deliveries with 401 WHK-401-001 and one fixed detail, applying nothing", async () => {
    const { jwt } = await platform.createUser();
    const [checking] = await linkBank(jwt);
    const item_id = await itemOf(checking!.id);
    const event = (id: string) => ({ id, type: "link.reauth_required", data: { item_id } });
    // a minute past the tolerance, so a slow run cannot bring the future one back inside it
    const now = Math.floor(Date.now() / 1000);
    const refusals = [
      await deliver(event("evt_unsigned"), { header: null }),
      await deliver(event("evt_forged"), { secret: "not-the-secret" }),
      await deliver(event("evt_stale"), { timestamp: now - 360 }),
      await deliver(event("evt_future"), { timestamp: now + 360 }),
      await deliver(event("evt_garbled"), { header: "t=abc,v1=zz" }),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(401);
      const body = await response.json();
      expect(body).toMatchObject({ error_code: "WHK-401-001", detail: BANKING_WEBHOOK_SIGNATURE_DETAIL });
    }
    expect((await (await platform.api(`/v0/bank-accounts/${checking!.id}`, { jwt })).json()).connection_status).toBe("active");
    expect(await db.bankingProviderEvent.count({ where: { event_id: { in: ["evt_unsigned", "evt_forged", "evt_stale", "evt_future", "evt_garbled"] } } })).toBe(0);
    // a body altered after signing: the signature no longer matches
    const body = JSON.stringify({ ...event("evt_altered"), created_at: new Date().toISOString() });
    const header = signBankingPayload(body, [sandboxWebhookSecret(undefined, "banking")], now);
    const altered = await fetch(`${platform.urls.platform}/v0/webhooks/banking-provider/events`, { method: "POST", headers: { "content-type": "application/json", [BANKING_SIGNATURE_HEADER]: header }, body: body.replace("reauth_required", "failed") });
    expect(altered.status).toBe(401);
  });

  // the exact 300 s boundary is banking-rules.test.ts's, on a fixed clock; 240 s leaves a slow run a minute
  it("accepts both secrets during a rotation, and a clock four minutes behind", async () => {
    const { jwt } = await platform.createUser();
    const [checking] = await linkBank(jwt);
    const item_id = await itemOf(checking!.id);
    expect((await deliver({ id: `evt_old_${item_id}`, type: "link.reauth_required", data: { item_id } }, { secret: OLD_SECRET, timestamp: Math.floor(Date.now() / 1000) - 240 })).status).toBe(200);
    expect((await deliver({ id: `evt_new_${item_id}`, type: "link.completed", data: { item_id } }, { secret: NEW_SECRET })).status).toBe(200);
    expect((await (await platform.api(`/v0/bank-accounts/${checking!.id}`, { jwt })).json()).connection_status).toBe("active");
    expect(await db.bankingProviderEvent.findUnique({ where: { event_id: `evt_old_${item_id}` } })).toMatchObject({ outcome: "applied" });
  });

  it("applies an event id once, also 20 concurrent deliveries; illegal moves are recorded and ignored; unknown types and logins are no-ops", async () => {
    const { jwt } = await platform.createUser();
    const [checking] = await linkBank(jwt);
    const item_id = await itemOf(checking!.id);
    const reauth = { id: `evt_reauth_${item_id}`, type: "link.reauth_required", data: { item_id } };
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(reauth)));
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect((await (await platform.api(`/v0/bank-accounts/${checking!.id}`, { jwt })).json()).connection_status).toBe("reauth_required");
    expect(await db.bankingProviderEvent.count({ where: { event_id: reauth.id } })).toBe(1);

    // a ramp quote needs an active connection
    expect((await deliver({ id: `evt_completed_${item_id}`, type: "link.completed", data: { item_id } })).status).toBe(200);
    // a replay of the reauth event after the login recovered does not move it back
    expect((await deliver(reauth)).status).toBe(200);
    expect((await (await platform.api(`/v0/bank-accounts/${checking!.id}`, { jwt })).json()).connection_status).toBe("active");
    expect((await deliver({ id: `evt_again_${item_id}`, type: "link.completed", data: { item_id } })).status).toBe(200);
    expect(await db.bankingProviderEvent.findUnique({ where: { event_id: `evt_again_${item_id}` } })).toMatchObject({ outcome: "ignored" });

    expect((await deliver({ id: `evt_unknown_type_${item_id}`, type: "item.webhook_update_acknowledged", data: { item_id } })).status).toBe(200);
    expect((await deliver({ id: `evt_unknown_item_${item_id}`, type: "link.failed", data: { item_id: "item-nobody" } })).status).toBe(200);
    expect(await db.bankingProviderEvent.findUnique({ where: { event_id: `evt_unknown_item_${item_id}` } })).toMatchObject({ outcome: "no_op" });
    expect((await deliver({ id: `evt_unknown_ramp_${item_id}`, type: "ramp.completed", data: { ramp_id: "ramp-nobody" } })).status).toBe(200);
    expect(await db.bankingProviderEvent.findUnique({ where: { event_id: `evt_unknown_ramp_${item_id}` } })).toMatchObject({ outcome: "no_op" });
    // a verified body that is not the envelope
    expect((await deliver({ id: "", type: "link.failed" })).status).toBe(422);
  });

  it("answers 5xx when the event cannot be applied (the provider's sync fails), records nothing, and applies the provider's retry", async () => {
    const { jwt } = await platform.createUser();
    const [checking] = await linkBank(jwt);
    const connection = (await db.bankAccount.findUniqueOrThrow({ where: { id: checking!.id }, include: { connection: true } })).connection;
    const { cardCipher, banking } = (platform.subgraphs.finance as any).services;
    // the bank books a transaction while the platform cannot reach the login (a broken token stands in for an outage)
    await db.bankConnection.update({ where: { id: connection.id }, data: { access_token_sealed: cardCipher.seal("access-sandbox-unknown-login") } });
    const added = await banking.addTransaction(cardCipher.open(connection.access_token_sealed), {
      provider_account_id: "chk", amount: "7.00", direction: "out", type: "fee", category: null, description: "Late fee", merchant_name: null, counterparty: null, pending: false,
    });
    expect(added.webhook_status).toBe(502);
    const event = { id: `evt_retry_${connection.id}`, type: "transactions.available", data: { item_id: connection.provider_item_id } };
    const failed = await deliver(event);
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ error_code: "BNK-502-001" });
    expect(await db.bankingProviderEvent.count({ where: { event_id: event.id } })).toBe(0);
    const lateFees = async () => (await feed(jwt, `&bank_account_id=${checking!.id}`)).items.filter((t: { description: string }) => t.description === "Late fee");
    expect(await lateFees()).toEqual([]);

    await db.bankConnection.update({ where: { id: connection.id }, data: { access_token_sealed: connection.access_token_sealed } });
    expect((await deliver(event)).status).toBe(200);
    expect(await lateFees()).toHaveLength(1);
    expect(await db.bankingProviderEvent.findUnique({ where: { event_id: event.id } })).toMatchObject({ outcome: "applied" });
    expect((await deliver(event)).status).toBe(200);
    expect(await lateFees()).toHaveLength(1);
  });

  it("moves the connection through the sandbox's link events; an unlinked login stays revoked", async () => {
    const { jwt } = await platform.createUser();
    const [checking, savings] = await linkBank(jwt);
    const event = (name: string) => platform.api(`/v0/sandbox/bank-accounts/${checking!.id}/connection-events`, { method: "POST", jwt, json: { event: name } });
    expect((await event("link.failed")).status).toBe(200);
    expect((await (await platform.api(`/v0/bank-accounts/${checking!.id}`, { jwt })).json()).connection_status).toBe("error");
    expect((await event("link.completed")).status).toBe(200);
    expect((await (await platform.api(`/v0/bank-accounts/${savings!.id}`, { jwt })).json()).connection_status).toBe("active");
    const item_id = await itemOf(checking!.id);
    for (const account of [checking!, savings!]) await platform.api(`/v0/bank-accounts/${account.id}`, { method: "DELETE", jwt });
    expect((await deliver({ id: `evt_after_unlink_${item_id}`, type: "link.completed", data: { item_id } })).status).toBe(200);
    expect((await db.bankConnection.findUniqueOrThrow({ where: { provider_item_id: item_id } })).status).toBe("revoked");
  });
});
