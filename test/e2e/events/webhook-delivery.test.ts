import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORG, startBootstrappedIdentity } from "../../support/identity.ts";
import type { TestPlatform } from "../../support/platform.ts";
import { registrationBody } from "../../support/registration.ts";

// Issue 29: an organisation's outgoing events reach its webhook endpoint, signed as Standard
// Webhooks, at a real receiver on loopback (WEBHOOK_ALLOW_LOOPBACK, on in the sandbox).
let platform: TestPlatform;
let owner: string;
let receiver: Server;
let receiverUrl = "";
let envId = "";
type Received = { headers: IncomingHttpHeaders; body: string; event: { id: string; type: string; resource: { id: string }; data: Record<string, unknown> } };
const received: Received[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body, event: JSON.parse(body) });
      if (req.url === "/down") return res.writeHead(500).end("down");
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  ({ platform, owner } = await startBootstrappedIdentity());
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
  const environment = `${ORG}:${envId}`;
  const jwt = await platform.issuer.sign({ sub });
  const response = await platform.api("/v0/user/", { method: "POST", jwt, headers: { "x-platform-orgid": environment }, json: await registrationBody(jwt, { environment_id: environment }) });
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body.id;
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
    const { _links, ...envelope } = listed;
    expect(delivery.event).toEqual(envelope);
    // once: later passes send nothing more
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(received.filter((r) => r.event.id === delivery.event.id)).toHaveLength(1);
    const { db } = (platform.subgraphs.identity as any).services;
    expect(await db.webhookDelivery.findFirstOrThrow({ where: { event_id: delivery.event.id } })).toMatchObject({ status: "delivered", attempts: 1, last_status: 200 });

    const rotated = await platform.identity(`${path}/${endpoint.id}/rotate-secret`, { method: "POST", bearer: owner, json: { overlap_seconds: 3600 } });
    expect(rotated.status).toBe(200);
    const { secret } = await rotated.json();
    const next = await deliveryOf("user.created", await register("deliveries-after-rotation"));
    expect(String(next.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const key of [secret, endpoint.secret]) expect(new Webhook(key).verify(next.body, headersOf(next))).toMatchObject({ type: "user.created" });
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
