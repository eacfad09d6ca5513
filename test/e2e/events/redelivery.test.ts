import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORG, startBootstrappedIdentity, type BootstrappedIdentity } from "../../support/identity.ts";
import type { TestPlatform } from "../../support/platform.ts";
import { registrationBody } from "../../support/registration.ts";

// Issue 29: what a receiver that was down missed is listed with delivery_success=false, read with
// its attempts, and redelivered (all since an instant, or one event) once it is up again.
let platform: TestPlatform;
let owner: string;
let member: string;
let outsider: string;
/** the outsider's own organisation */
let otherOrg = "";
let expectIdentityProblem: BootstrappedIdentity["expectIdentityProblem"];
let receiver: Server;
let receiverUrl = "";
let envId = "";
let endpointId = "";
/** while true the receiver answers 503 with Retry-After: an hour, so nothing but a redelivery sends the event again soon */
let down = true;
const received: { id: string; type: string; resource: { id: string } }[] = [];

const events = () => `/v0/organisation/${ORG}/events`;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      if (down) return res.writeHead(503, { "retry-after": "3600" }).end("maintenance");
      received.push(JSON.parse(body));
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  ({ platform, owner, expectIdentityProblem } = await startBootstrappedIdentity());
  const provider = { name: "provider_a", issuer: platform.issuer.issuer, jwks_uri: platform.issuer.jwksUri };
  const created = await platform.identity(`/v0/organisation/${ORG}/environments`, { method: "POST", bearer: owner, json: { name: "Redelivery", auth_providers: [provider] } });
  expect(created.status).toBe(201);
  envId = (await created.json()).id;
  const endpoint = await platform.identity(`/v0/organisation/${ORG}/environments/${envId}/webhook-endpoints`, { method: "POST", bearer: owner, json: { url: receiverUrl, event_types: ["user.created"] } });
  expect(endpoint.status).toBe(201);
  endpointId = (await endpoint.json()).id;
  expect((await platform.identity(`/v0/organisation/${ORG}/members`, { method: "POST", bearer: owner, json: { sub: "redelivery-member", role: "member" } })).status).toBe(201);
  member = await platform.dashboard.sign({ sub: "redelivery-member" });
  outsider = await platform.dashboard.sign({ sub: "redelivery-outsider" });
  const elsewhere = await platform.identity("/v0/organisations", { method: "POST", bearer: outsider, json: { name: "Elsewhere Ltd" } });
  expect(elsewhere.status).toBe(201);
  otherOrg = (await elsewhere.json()).id;
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

type Delivery = { id: string; endpoint_id: string; status: string; attempt_count: number; next_attempt_at: number | null; delivered_at: number | null; attempts: Record<string, unknown>[] };
type Detail = { id: string; created_at: number; deliveries: Delivery[] };

/** Polls until `until` holds (relay and delivery run every second). */
async function poll<T>(read: () => Promise<T>, until: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (until(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function list(query: string): Promise<{ id: string; resource: { id: string } }[]> {
  const response = await platform.identity(`${events()}${query}`, { bearer: owner });
  expect(response.status).toBe(200);
  return (await response.json()).items;
}

async function detail(eventId: string, bearer = owner): Promise<Detail> {
  const response = await platform.identity(`${events()}/${eventId}`, { bearer });
  expect(response.status).toBe(200);
  return response.json();
}

const eventOf = (userId: string) => poll(() => list(`?resource_id=${userId}`), (items) => items.length === 1).then((items) => items[0]!.id);

describe("events a down receiver missed", () => {
  let missed: string[] = [];
  let since = 0;

  it("are listed with delivery_success=false, with their failed attempts, while the receiver is down", async () => {
    since = Date.now() - 1000;
    const users = [await register("redelivery-a"), await register("redelivery-b")];
    missed = await Promise.all(users.map(eventOf));
    for (const eventId of missed) {
      const read = await poll(() => detail(eventId), (event) => event.deliveries[0]?.attempt_count === 1);
      expect(read.deliveries).toEqual([
        {
          id: expect.stringMatching(/^whd_/),
          endpoint_id: endpointId,
          status: "pending",
          attempt_count: 1,
          next_attempt_at: expect.any(Number),
          delivered_at: null,
          attempts: [{ attempted_at: expect.any(Number), status_code: 503, latency_ms: expect.any(Number), response_excerpt: "maintenance", error: null }],
        },
      ]);
      // Retry-After: an hour
      expect(read.deliveries[0]!.next_attempt_at! - Date.now()).toBeGreaterThan(3_000_000);
    }
    const undelivered = (await list(`?delivery_success=false&created_after=${since}`)).map((event) => event.id);
    expect(undelivered).toEqual(expect.arrayContaining(missed));
    expect((await list("?delivery_success=true")).some((event) => missed.includes(event.id))).toBe(false);
    expect(received).toEqual([]);
  });

  it("a member may read them but not redeliver: 403 IDS-403-003; another organisation's member gets 404", async () => {
    expect((await detail(missed[0]!, member)).id).toBe(missed[0]);
    await expectIdentityProblem(await platform.identity(`${events()}/redeliver`, { method: "POST", bearer: member, json: { since } }), 403, "IDS-403-003", "insufficient_role");
    await expectIdentityProblem(await platform.identity(`${events()}/${missed[0]}/redeliver`, { method: "POST", bearer: member, json: {} }), 403, "IDS-403-003", "insufficient_role");
    await expectIdentityProblem(await platform.identity(`${events()}/${missed[0]}/redeliver`, { method: "POST", bearer: outsider, json: {} }), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(await platform.identity(`${events()}/redeliver`, { method: "POST", bearer: outsider, json: { since } }), 404, "IDS-404-001", "not_found");
    // the outsider's own organisation does not hold the event
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${otherOrg}/events/${missed[0]}/redeliver`, { method: "POST", bearer: outsider, json: {} }), 404, "IDS-404-001", "not_found");
    // nothing was queued
    expect((await detail(missed[0]!)).deliveries[0]).toMatchObject({ status: "pending", attempt_count: 1 });
  });

  it("refuses an invalid since (422 at the field), an unknown endpoint (404) and an unknown event (404)", async () => {
    for (const body of [{}, { since: "yesterday" }, { since: -1 }]) {
      const refused = await platform.identity(`${events()}/redeliver`, { method: "POST", bearer: owner, json: body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(await refused.json()).toMatchObject({ error_code: "GEN-422-001", detail: [{ loc: ["body", "since"] }] });
    }
    await expectIdentityProblem(await platform.identity(`${events()}/redeliver`, { method: "POST", bearer: owner, json: { since, endpoint_id: "whe_missing" } }), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(await platform.identity(`${events()}/${missed[0]}/redeliver`, { method: "POST", bearer: owner, json: { endpoint_id: "whe_missing" } }), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(await platform.identity(`${events()}/evt_missing/redeliver`, { method: "POST", bearer: owner, json: {} }), 404, "IDS-404-001", "not_found");
  });

  it("are redelivered, all since an instant, once the receiver is up, with the same ids", async () => {
    down = false;
    const response = await platform.identity(`${events()}/redeliver`, { method: "POST", bearer: owner, json: { since } });
    expect(response.status).toBe(202);
    const body = await response.json();
    expect(body.queued).toBeGreaterThanOrEqual(missed.length);
    expect(body._links.undelivered.href).toBe(`${platform.config.publicIdentityUrl}${events()}?delivery_success=false`);
    await poll(async () => received.map((event) => event.id), (ids) => missed.every((id) => ids.includes(id)), 10_000);
    for (const eventId of missed) {
      const read = await poll(() => detail(eventId), (event) => event.deliveries[0]?.status === "delivered");
      expect(read.deliveries[0]).toMatchObject({ status: "delivered", attempt_count: 2, next_attempt_at: null, delivered_at: expect.any(Number) });
      expect(read.deliveries[0]!.attempts.map((attempt) => attempt.status_code)).toEqual([200, 503]);
    }
    expect((await list(`?delivery_success=false&created_after=${since}`)).some((event) => missed.includes(event.id))).toBe(false);
    expect((await list(`?delivery_success=true&created_after=${since}`)).map((event) => event.id)).toEqual(expect.arrayContaining(missed));
    // nothing left to queue
    expect(await (await platform.identity(`${events()}/redeliver`, { method: "POST", bearer: owner, json: { since, endpoint_id: endpointId } })).json()).toMatchObject({ queued: 0 });
  });

  it("redelivers one event again on request, delivered or not, and refuses when no enabled endpoint is subscribed (409)", async () => {
    const eventId = missed[0]!;
    const before = received.filter((event) => event.id === eventId).length;
    const response = await platform.identity(`${events()}/${eventId}/redeliver`, { method: "POST", bearer: owner, json: { endpoint_id: endpointId } });
    expect(response.status).toBe(202);
    const body = await response.json();
    expect(body.deliveries[0]).toMatchObject({ endpoint_id: endpointId, status: "pending", attempt_count: 2, next_attempt_at: expect.any(Number), delivered_at: null });
    expect(body._links.self.href).toBe(`${platform.config.publicIdentityUrl}${events()}/${eventId}`);
    await poll(async () => received.filter((event) => event.id === eventId).length, (count) => count === before + 1, 10_000);
    await poll(() => detail(eventId), (event) => event.deliveries[0]?.status === "delivered" && event.deliveries[0].attempt_count === 3);

    // disabled: nothing to deliver to
    expect((await platform.identity(`/v0/organisation/${ORG}/environments/${envId}/webhook-endpoints/${endpointId}`, { method: "PATCH", bearer: owner, json: { enabled: false } })).status).toBe(200);
    await expectIdentityProblem(await platform.identity(`${events()}/${eventId}/redeliver`, { method: "POST", bearer: owner, json: {} }), 409, "IDS-409-004", "no_webhook_endpoint");
    await expectIdentityProblem(await platform.identity(`${events()}/${eventId}/redeliver`, { method: "POST", bearer: owner, json: { endpoint_id: endpointId } }), 409, "IDS-409-004", "no_webhook_endpoint");
    expect((await platform.identity(`/v0/organisation/${ORG}/environments/${envId}/webhook-endpoints/${endpointId}`, { method: "PATCH", bearer: owner, json: { enabled: true } })).status).toBe(200);
  });

  it("is documented on the identity host", async () => {
    const document = await (await platform.identity("/openapi.json")).json();
    const one = document.paths["/v0/organisation/{org_id}/events/{event_id}/redeliver"].post;
    expect(one.security).toEqual([{ DashboardSession: [] }]);
    expect(Object.keys(one.responses)).toEqual(expect.arrayContaining(["202", "403", "404", "409", "422"]));
    const all = document.paths["/v0/organisation/{org_id}/events/redeliver"].post;
    expect(all.requestBody.content["application/json"].schema.required).toEqual(["since"]);
    expect(all.responses["202"].content["application/json"].schema.properties.queued.type).toBe("integer");
    const read = document.paths["/v0/organisation/{org_id}/events/{event_id}"].get.responses["200"].content["application/json"].schema;
    expect(Object.keys(read.properties.deliveries.items.properties.attempts.items.properties).sort()).toEqual(["attempted_at", "error", "latency_ms", "response_excerpt", "status_code"]);
  });
});
