import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import { approvedUser, linkSandboxBank } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 29: the finance subgraph writes its bank account and ramp events into its outbox where
// their states move, once per move (the relay and delivery of finance events: events.test.ts,
// webhook-delivery.test.ts).
let platform: TestPlatform;
let db: FinanceDb;

beforeAll(async () => {
  platform = await startTestPlatform();
  db = (platform.subgraphs.finance as any).services.db;
});
afterAll(() => platform?.stop());

const outbox = async (user_id: string, type: string) => (await db.outgoingEvent.findMany({ where: { user_id, type }, orderBy: { id: "asc" } })).map((row) => ({ resource_id: row.resource_id, data: row.data as Record<string, unknown> }));

describe("finance outgoing events", () => {
  it("writes bank_account.linked, login_required (once per move) and unlinked, never a token", async () => {
    const user = await approvedUser(platform);
    const [checking, savings] = await linkSandboxBank(platform, user.jwt);
    const linked = await outbox(user.id, "bank_account.linked");
    expect(linked.map((event) => event.resource_id).sort()).toEqual([checking!.id, savings!.id].sort());
    expect(linked.find((event) => event.resource_id === checking!.id)!.data).toEqual({
      id: checking!.id,
      user_id: user.id,
      institution_id: expect.any(String),
      institution_name: expect.any(String),
      name: checking!.name,
      account_type: expect.any(String),
      currency: checking!.currency,
      mask: expect.stringMatching(/^\d{4}$/),
      balance: expect.any(String),
      connection_status: "active",
      created_at: expect.any(Number),
    });

    const connectionEvent = (event: string) => platform.api(`/v0/sandbox/bank-accounts/${checking!.id}/connection-events`, { method: "POST", jwt: user.jwt, json: { event } });
    expect((await connectionEvent("link.reauth_required")).status).toBe(200);
    // a second report finds the login waiting already: the table has no such move, nothing is written
    expect((await connectionEvent("link.reauth_required")).status).toBe(200);
    const required = await outbox(user.id, "bank_account.login_required");
    expect(required.map((event) => event.resource_id).sort()).toEqual([checking!.id, savings!.id].sort());
    expect(required[0]!.data).toMatchObject({ connection_status: "reauth_required", previous_connection_status: "active" });
    expect((await connectionEvent("link.completed")).status).toBe(200);

    expect((await platform.api(`/v0/bank-accounts/${savings!.id}`, { method: "DELETE", jwt: user.jwt })).status).toBe(200);
    expect((await platform.api(`/v0/bank-accounts/${checking!.id}`, { method: "DELETE", jwt: user.jwt })).status).toBe(200);
    const unlinked = await outbox(user.id, "bank_account.unlinked");
    expect(unlinked.map((event) => [event.resource_id, event.data.connection_status])).toEqual([
      [savings!.id, "active"],
      // the login's last account: the connection is revoked with it
      [checking!.id, "revoked"],
    ]);
    expect(unlinked[0]!.data).toMatchObject({ unlinked_at: expect.any(Number) });
    const rows = await db.outgoingEvent.findMany({ where: { user_id: user.id } });
    expect(JSON.stringify(rows.map((row) => row.data))).not.toMatch(/access|token|secret/i);
  });

  it("writes ramp.status_changed for each move a provider reports, not for a replayed one", async () => {
    const user = await approvedUser(platform);
    const [checking] = await linkSandboxBank(platform, user.jwt);
    const quote = await (await platform.api("/v0/ramps/quotes", { method: "POST", jwt: user.jwt, json: { direction: "on", bank_account_id: checking!.id, wallet_id: user.wallet_id, asset: "USDC", amount: "250.00" } })).json();
    const carried = await platform.api("/v0/ramps/on", { method: "POST", jwt: user.jwt, json: { quote_id: quote.id } });
    expect(carried.status).toBe(201);
    const ramp = await carried.json();
    const settle = (outcome: string) => platform.api(`/v0/sandbox/ramps/${ramp.id}/settle`, { method: "POST", jwt: user.jwt, json: { outcome } });
    expect((await settle("completed")).status).toBe(200);
    // a second outcome is ignored by spec 3.4's table
    await settle("failed");
    const changes = await outbox(user.id, "ramp.status_changed");
    expect(changes.map((event) => `${event.data.previous_status}->${event.data.status}`)).toEqual(["pending->processing", "processing->completed"]);
    expect(changes[1]).toEqual({
      resource_id: ramp.id,
      data: expect.objectContaining({ id: ramp.id, user_id: user.id, quote_id: quote.id, direction: "on", transaction_id: ramp.transaction_id, asset: "USDC", asset_amount: "247.5", fiat_amount: "250.00", fee: "2.50", failure_reason: null }),
    });
  });
});
