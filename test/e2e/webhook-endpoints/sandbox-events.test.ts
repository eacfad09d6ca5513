import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleEventData } from "../../../lib/contracts/event-samples.ts";
import { EVENT_PAYLOADS, EVENT_TYPES } from "../../../lib/contracts/events.ts";
import { ORG, startBootstrappedIdentity, type BootstrappedIdentity } from "../../support/identity.ts";
import type { TestPlatform } from "../../support/platform.ts";

// Issue 29, sandbox: POST /v0/sandbox/organisation/{org_id}/environments/{env_id}/events emits a
// test event of any catalogue type with sample data, stored and delivered like any event.
let platform: TestPlatform;
let owner: string;
let expectIdentityProblem: BootstrappedIdentity["expectIdentityProblem"];
let receiver: Server;
let receiverUrl = "";
let envId = "";
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  ({ platform, owner, expectIdentityProblem } = await startBootstrappedIdentity());
  const created = await platform.identity(`/v0/organisation/${ORG}/environments`, { method: "POST", bearer: owner, json: { name: "Sandbox events" } });
  envId = (await created.json()).id;
});
afterAll(async () => {
  await platform?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const emitPath = (env = envId, org = ORG) => `/v0/sandbox/organisation/${org}/environments/${env}/events`;
const emit = (type: string, bearer = owner, path = emitPath()) => platform.identity(path, { method: "POST", bearer, json: { type } });

async function deliveryOf(eventId: string, timeoutMs = 20_000) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
    const hit = received.find((r) => r.headers["webhook-id"] === eventId);
    if (hit) return hit;
  }
  throw new Error(`${eventId} was not delivered`);
}

describe("sandbox test events", () => {
  it("emits a sample event of a type to the subscribed endpoints, signed, listed by the events API, and none to an endpoint of other types", async () => {
    const endpoints = `/v0/organisation/${ORG}/environments/${envId}/webhook-endpoints`;
    const subscribed = await (await platform.identity(endpoints, { method: "POST", bearer: owner, json: { url: receiverUrl, event_types: ["user.kyc_status_changed"] } })).json();
    const other = await (await platform.identity(endpoints, { method: "POST", bearer: owner, json: { url: `${receiverUrl}/other`, event_types: ["user.created"] } })).json();

    const response = await emit("user.kyc_status_changed");
    expect(response.status).toBe(201);
    const event = await response.json();
    const data = sampleEventData("user.kyc_status_changed");
    expect(event).toMatchObject({
      id: expect.stringMatching(/^evt_/),
      type: "user.kyc_status_changed",
      environment_id: `${ORG}:${envId}`,
      resource: { type: "user", id: data.user_id },
      data,
      _links: { event: { href: `${platform.config.publicIdentityUrl}/v0/organisation/${ORG}/events/${event.id}` } },
    });
    const { _links, ...envelope } = event;
    expect((await (await platform.identity(`/v0/organisation/${ORG}/events/${event.id}`, { bearer: owner })).json()).data).toEqual(data);

    const delivery = await deliveryOf(event.id);
    const headers = { "webhook-id": String(delivery.headers["webhook-id"]), "webhook-timestamp": String(delivery.headers["webhook-timestamp"]), "webhook-signature": String(delivery.headers["webhook-signature"]) };
    expect(new Webhook(subscribed.secret).verify(delivery.body, headers)).toEqual(envelope);
    const { db } = (platform.subgraphs.identity as any).services;
    expect(await db.webhookDelivery.findMany({ where: { event_id: event.id }, select: { endpoint_id: true } })).toEqual([{ endpoint_id: subscribed.id }]);
    expect(other.id).not.toBe(subscribed.id);
  });

  it("emits every catalogue type, a type without a payload schema yet with empty data", async () => {
    for (const type of EVENT_TYPES) {
      const response = await emit(type);
      expect(response.status, type).toBe(201);
      const event = await response.json();
      expect(event.type).toBe(type);
      if (!(type in EVENT_PAYLOADS)) expect(event.data, type).toEqual({});
    }
  });

  it("refuses an unknown type at the field, a member 403, a non-member and an unknown environment 404", async () => {
    const unknown = await emit("user.deleted");
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).detail[0].loc).toEqual(["body", "type"]);
    expect((await platform.identity(`/v0/organisation/${ORG}/members`, { method: "POST", bearer: owner, json: { sub: "sandbox-events-member", role: "member" } })).status).toBe(201);
    await expectIdentityProblem(await emit("user.created", await platform.dashboard.sign({ sub: "sandbox-events-member" })), 403, "IDS-403-003", "insufficient_role");
    await expectIdentityProblem(await emit("user.created", await platform.dashboard.sign({ sub: "stranger" })), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(await emit("user.created", owner, emitPath("env_missing")), 404, "IDS-404-001", "not_found");
  });

  it("is documented under the Sandbox tag of the identity host's document", async () => {
    const document = await (await platform.identity("/openapi.json")).json();
    expect(document.paths["/v0/sandbox/organisation/{org_id}/environments/{env_id}/events"].post).toMatchObject({ operationId: "emitSandboxEvent", tags: ["Sandbox"] });
  });
});
