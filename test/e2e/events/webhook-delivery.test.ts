import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORG, startBootstrappedIdentity } from "../../support/identity.ts";
import type { TestPlatform } from "../../support/platform.ts";
import { registrationBody } from "../../support/registration.ts";
import { ensureAsset } from "../../support/finance.ts";

// Issue 29: an organisation's outgoing events reach its webhook endpoint, signed as Standard
// Webhooks, at a real receiver on loopback (WEBHOOK_ALLOW_LOOPBACK, on in the sandbox).
let platform: TestPlatform;
let owner: string;
let receiver: Server;
let receiverUrl = "";
let envId = "";
type Received = { url: string; headers: IncomingHttpHeaders; body: string; event: { id: string; type: string; resource: { id: string }; data: Record<string, unknown> } };
const received: Received[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ url: req.url ?? "", headers: req.headers, body, event: JSON.parse(body) });
      if (req.url === "/down") return res.writeHead(500).end("down");
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  ({ platform, owner } = await startBootstrappedIdentity());
  await ensureAsset((platform.subgraphs.finance as any).services.db, "USDC", 6);
  const provider = { name: "provider_a", issuer: platform.issuer.issuer, jwks_uri: platform.issuer.jwksUri };
  const created = await platform.identity(`/v0/organisation/${ORG}/environments`, { method: "POST", bearer: owner, json: { name: "Deliveries", auth_providers: [provider] } });
  expect(created.status).toBe(201);
  envId = (await created.json()).id;
});
afterAll(async () => {
  await platform?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

async function register(sub: string): Promise<string> {
  return (await registered(sub)).id;
}

/** A user of the test environment, and how to call the platform as them. */
async function registered(sub: string) {
  const environment = `${ORG}:${envId}`;
  const jwt = await platform.issuer.sign({ sub });
  const headers = { "x-platform-orgid": environment };
  const response = await platform.api("/v0/user/", { method: "POST", jwt, headers, json: await registrationBody(jwt, { environment_id: environment }) });
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(201);
  const call = async (path: string, json?: unknown) => {
    const answer = await platform.api(path, { method: json === undefined ? "GET" : "POST", jwt, headers, ...(json !== undefined && { json }) });
    const result = await answer.json();
    expect(answer.ok, `${path}: ${JSON.stringify(result)}`).toBe(true);
    return result;
  };
  return { id: body.id as string, call };
}

/** Waits until the receiver holds a delivery of `type` about `resourceId` (relay and delivery poll every second). */
async function deliveryOf(type: string, resourceId: string, timeoutMs = 20_000): Promise<Received> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hit = received.find((r) => r.event.type === type && r.event.resource.id === resourceId);
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error(`no ${type} delivery for ${resourceId} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const headersOf = (r: Received) => ({ "webhook-id": String(r.headers["webhook-id"]), "webhook-timestamp": String(r.headers["webhook-timestamp"]), "webhook-signature": String(r.headers["webhook-signature"]) });

describe("webhook delivery", () => {
  it("delivers user.created once, signed, to an endpoint of the user's environment; after a rotation both secrets verify", async () => {
    const path = `/v0/organisation/${ORG}/environments/${envId}/webhook-endpoints`;
    const response = await platform.identity(path, { method: "POST", bearer: owner, json: { url: receiverUrl, event_types: ["user.created"] } });
    expect(response.status).toBe(201);
    const endpoint = await response.json();

    const userId = await register("deliveries-user");
    const delivery = await deliveryOf("user.created", userId);
    expect(new Webhook(endpoint.secret).verify(delivery.body, headersOf(delivery))).toMatchObject({ type: "user.created", resource: { type: "user", id: userId } });
    expect(delivery.headers["webhook-id"]).toBe(delivery.event.id);
    expect(delivery.headers["content-type"]).toBe("application/json");
    expect(delivery.headers["user-agent"]).toBe("platform-webhooks/1");
    // the envelope is the events API's
    const listed = await (await platform.identity(`/v0/organisation/${ORG}/events/${delivery.event.id}`, { bearer: owner })).json();
    const { _links, deliveries: _deliveries, ...envelope } = listed;
    expect(delivery.event).toEqual(envelope);
    // once: later passes send nothing more
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(received.filter((r) => r.event.id === delivery.event.id)).toHaveLength(1);
    const { db } = (platform.subgraphs.identity as any).services;
    expect(await db.webhookDelivery.findFirstOrThrow({ where: { event_id: delivery.event.id } })).toMatchObject({ status: "delivered", attempts: 1, last_status: 200 });
    const { deliveries } = await (await platform.identity(`/v0/organisation/${ORG}/events/${delivery.event.id}`, { bearer: owner })).json();
    expect(deliveries).toEqual([expect.objectContaining({ endpoint_id: endpoint.id, status: "delivered", attempt_count: 1, attempts: [expect.objectContaining({ status_code: 200, response_excerpt: "ok", error: null })] })]);

    const rotated = await platform.identity(`${path}/${endpoint.id}/rotate-secret`, { method: "POST", bearer: owner, json: { overlap_seconds: 3600 } });
    expect(rotated.status).toBe(200);
    const { secret } = await rotated.json();
    const next = await deliveryOf("user.created", await register("deliveries-after-rotation"));
    expect(String(next.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const key of [secret, endpoint.secret]) expect(new Webhook(key).verify(next.body, headersOf(next))).toMatchObject({ type: "user.created" });
  });

  it("delivers a KYC decision's, a sandbox deposit's and a card's and its authorizations' events once each, signed", async () => {
    const path = `/v0/organisation/${ORG}/environments/${envId}/webhook-endpoints`;
    const types = ["user.kyc_status_changed", "transaction.created", "card.created", "card.status_changed", "card.authorization_approved", "card.authorization_declined"];
    const response = await platform.identity(path, { method: "POST", bearer: owner, json: { url: receiverUrl.replace(/hook$/, "finance"), event_types: types } });
    expect(response.status).toBe(201);
    const endpoint = await response.json();
    const verified = async (type: string, resourceId: string) => {
      const delivery = await deliveryOf(type, resourceId);
      expect(delivery.url).toBe("/finance");
      return new Webhook(endpoint.secret).verify(delivery.body, headersOf(delivery)) as Received["event"];
    };

    const user = await registered("deliveries-finance");
    await user.call("/v0/kyc/access-token", {});
    await user.call("/v0/kyc/submissions", {});
    await user.call("/v0/kyc/sandbox/decision", { answer: "GREEN" });
    // the submission's move and the decision's, each its own event
    const approvedAfter = Date.now() + 20_000;
    while (received.filter((r) => r.event.type === "user.kyc_status_changed" && r.event.resource.id === user.id).length < 2 && Date.now() < approvedAfter) await new Promise((resolve) => setTimeout(resolve, 200));
    const moves = received.filter((r) => r.event.type === "user.kyc_status_changed" && r.event.resource.id === user.id).map((r) => new Webhook(endpoint.secret).verify(r.body, headersOf(r)) as Received["event"]);
    expect(moves.map((move) => [move.data.previous_status, move.data.status]).sort()).toEqual([["in_progress", "approved"], ["pending", "in_progress"]]);
    const wallet_id = (await user.call("/v0/wallets")).items.find((wallet: { type: string }) => wallet.type === "EOA").id as number;
    const deposit = await user.call("/v0/sandbox/deposits", { wallet_id, asset: "USDC", amount: "20" });
    expect(await verified("transaction.created", deposit.id)).toMatchObject({ data: { id: deposit.id, user_id: user.id, type: "deposit", amount: "20", status: "completed" } });

    const card = await user.call("/v0/cards", { type: "virtual", funding_source: { type: "crypto_wallet", id: String(wallet_id) } });
    expect(await verified("card.created", card.id)).toMatchObject({ data: { id: card.id, status: "active", last_four: card.last_four } });
    const merchant = { name: "Corner Grocery", mcc: "5411" };
    const approved = await user.call(`/v0/sandbox/cards/${card.id}/authorizations`, { amount: "5", currency: "USD", merchant });
    expect(await verified("card.authorization_approved", approved.id)).toMatchObject({ data: { id: approved.id, card_id: card.id, decision: "approved", amount: "5", transaction_id: approved.transaction.id } });
    // the purchase it booked is a transaction too
    expect(await verified("transaction.created", approved.transaction.id)).toMatchObject({ data: { type: "card_purchase", card_id: card.id, status: "pending" } });
    const declined = await user.call(`/v0/sandbox/cards/${card.id}/authorizations`, { amount: "500", currency: "USD", merchant });
    expect(await verified("card.authorization_declined", declined.id)).toMatchObject({ data: { decision: "declined", decline_reason: "insufficient_funds" } });
    await user.call(`/v0/cards/${card.id}/freeze`, {});
    expect(await verified("card.status_changed", card.id)).toMatchObject({ data: { status: "suspended", previous_status: "active" } });

    // once each: later passes send nothing more
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const mine = received.filter((r) => r.url === "/finance");
    expect(mine.map((r) => r.event.type).sort()).toEqual([...types, "transaction.created", "user.kyc_status_changed"].sort());
    expect(new Set(mine.map((r) => r.event.id)).size).toBe(mine.length);
  });

  it("fails what a deleted endpoint was still owed: a receiver answering 500 gets no retry after its endpoint is deleted", async () => {
    const path = `/v0/organisation/${ORG}/environments/${envId}/webhook-endpoints`;
    const response = await platform.identity(path, { method: "POST", bearer: owner, json: { url: receiverUrl.replace(/hook$/, "down"), event_types: ["user.created"] } });
    expect(response.status).toBe(201);
    const endpoint = await response.json();
    const userId = await register("deliveries-down");
    const { db } = (platform.subgraphs.identity as any).services;
    const first = await deliveryOf("user.created", userId);
    // the first attempt answered 500: recorded, and due again in about 5 s
    let delivery;
    for (let i = 0; i < 50 && !(delivery = await db.webhookDelivery.findFirst({ where: { event_id: first.event.id, endpoint_id: endpoint.id, attempts: 1 } })); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(delivery).toMatchObject({ status: "pending", last_status: 500 });
    expect((await platform.identity(`${path}/${endpoint.id}`, { method: "DELETE", bearer: owner })).status).toBeLessThan(300);
    expect(await db.webhookDelivery.findFirstOrThrow({ where: { id: delivery.id } })).toMatchObject({ status: "failed", last_error: "the endpoint was deleted" });
  });
});
