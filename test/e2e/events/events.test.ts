import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENV, ORG, startBootstrappedIdentity, type BootstrappedIdentity } from "../../support/identity.ts";
import type { TestPlatform } from "../../support/platform.ts";
import { registrationBody } from "../../support/registration.ts";
import { ensureAsset } from "../../support/finance.ts";

// An organisation's outgoing events on the identity host (spec 2.5 `_links.events`, issue 29):
// the users and finance subgraphs' changes reach the list through the identity service's relay.
let platform: TestPlatform;
let owner: string;
let expectIdentityProblem: BootstrappedIdentity["expectIdentityProblem"];
let mint: BootstrappedIdentity["mint"];
/** an environment of ORG whose users sign in with the platform's test issuer */
let envId: string;
let orgid: string;

beforeAll(async () => {
  ({ platform, owner, expectIdentityProblem, mint } = await startBootstrappedIdentity());
  const provider = { name: "provider_a", issuer: platform.issuer.issuer, jwks_uri: platform.issuer.jwksUri };
  const created = await platform.identity(`/v0/organisation/${ORG}/environments`, { method: "POST", bearer: owner, json: { name: "Events", auth_providers: [provider] } });
  expect(created.status).toBe(201);
  envId = (await created.json()).id;
  orgid = `${ORG}:${envId}`;
});
afterAll(() => platform?.stop());

type Event = { id: string; type: string; api_version: string; created_at: number; environment_id: string; resource: { type: string; id: string }; data: Record<string, unknown> };

async function events(query = ""): Promise<Event[]> {
  const response = await platform.identity(`/v0/organisation/${ORG}/events${query}`, { bearer: owner });
  expect(response.status).toBe(200);
  return (await response.json()).items;
}

/** Polls the list until `found` picks what the test waits for (the relay runs every second). */
async function waitFor<T>(query: string, found: (items: Event[]) => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hit = found(await events(query));
    if (hit !== undefined) return hit;
    if (Date.now() > deadline) throw new Error(`no matching event for ${query} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function registerInEnvironment(sub: string, environment: string | undefined) {
  const jwt = await platform.issuer.sign({ sub });
  const headers: Record<string, string> = environment === undefined ? {} : { "x-platform-orgid": environment };
  const response = await platform.api("/v0/user/", { method: "POST", jwt, headers, json: await registrationBody(jwt, { environment_id: environment ?? "default" }) });
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(201);
  return { jwt, id: body.id as string, created_at: body.created_at as number, headers };
}

describe("organisation events", () => {
  it("resolves every link of the organisation wrapper for its member, events included", async () => {
    const { _links } = await (await platform.identity(`/v0/organisation/${ORG}`, { bearer: owner })).json();
    for (const [name, { href }] of Object.entries(_links as Record<string, { href: string }>)) {
      expect(href.startsWith(platform.config.publicIdentityUrl), name).toBe(true);
      expect((await platform.identity(href.slice(platform.config.publicIdentityUrl.length), { bearer: owner })).status, name).toBe(200);
    }
  });

  it("stores user.created once for a user registered in an organisation environment, in the envelope, readable by id", async () => {
    const user = await registerInEnvironment("events-user", orgid);
    const created = await waitFor("?type=user.created", (items) => items.find((event) => event.resource.id === user.id));
    expect(created).toEqual({
      id: expect.stringMatching(/^evt_[0-9a-z]{26}$/),
      type: "user.created",
      api_version: (await (await platform.identity("/openapi.json")).json()).info.version,
      created_at: expect.any(Number),
      environment_id: orgid,
      resource: { type: "user", id: user.id },
      data: { id: user.id, status: "pending", created_at: user.created_at },
    });
    // once: the relay's later passes add nothing
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await events("?type=user.created")).filter((event) => event.resource.id === user.id)).toHaveLength(1);

    const one = await platform.identity(`/v0/organisation/${ORG}/events/${created.id}`, { bearer: owner });
    expect(one.status).toBe(200);
    // no endpoint in the environment: owed to none
    expect(await one.json()).toEqual({
      ...created,
      deliveries: [],
      _links: {
        self: { href: `${platform.config.publicIdentityUrl}/v0/organisation/${ORG}/events/${created.id}` },
        redeliver: { href: `${platform.config.publicIdentityUrl}/v0/organisation/${ORG}/events/${created.id}/redeliver`, method: "POST" },
        events: { href: `${platform.config.publicIdentityUrl}/v0/organisation/${ORG}/events` },
      },
    });
    expect((await events(`?env_id=${envId}`)).some((event) => event.id === created.id)).toBe(true);
    expect((await events(`?env_id=${ENV}`)).some((event) => event.id === created.id)).toBe(false);
  });

  it("stores user.kyc_status_changed for a KYC decision of the sandbox provider", async () => {
    const user = await registerInEnvironment("events-kyc", orgid);
    const as = { jwt: user.jwt, headers: user.headers };
    expect((await platform.api("/v0/kyc/access-token", { method: "POST", ...as })).status).toBe(200);
    expect((await platform.api("/v0/kyc/submissions", { method: "POST", ...as })).status).toBe(202);
    const decision = await platform.api("/v0/kyc/sandbox/decision", { method: "POST", ...as, json: { answer: "GREEN" } });
    expect(decision.status).toBe(200);
    const changes = await waitFor("?type=user.kyc_status_changed", (items) => {
      const mine = items.filter((event) => event.resource.id === user.id);
      return mine.some((event) => event.data.status === "approved") ? mine : undefined;
    });
    // newest first: submitted, then approved
    expect(changes.map((event) => `${event.data.previous_status}->${event.data.status}`)).toEqual(["in_progress->approved", "pending->in_progress"]);
    expect(changes[0]).toMatchObject({ environment_id: orgid, resource: { type: "user", id: user.id }, data: { user_id: user.id, changed_at: expect.any(Number) } });
  });

  it("stores transaction.created for a sandbox deposit of an organisation environment's user, with the environment the users subgraph knows", async () => {
    await ensureAsset((platform.subgraphs.finance as any).services.db, "USDC", 6);
    const user = await registerInEnvironment("events-deposit", orgid);
    const as = { jwt: user.jwt, headers: user.headers };
    const wallets = await (await platform.api("/v0/wallets", as)).json();
    const wallet_id = wallets.items.find((wallet: { type: string }) => wallet.type === "EOA").id as number;
    const response = await platform.api("/v0/sandbox/deposits", { method: "POST", ...as, headers: { ...user.headers, "idempotency-key": "events-deposit-1" }, json: { wallet_id, asset: "USDC", amount: "25.50" } });
    expect(response.status).toBe(201);
    const transaction = await response.json();
    // an idempotent retry answers the same transaction and writes no second event
    const replay = await platform.api("/v0/sandbox/deposits", { method: "POST", ...as, headers: { ...user.headers, "idempotency-key": "events-deposit-1" }, json: { wallet_id, asset: "USDC", amount: "25.50" } });
    expect((await replay.json()).id).toBe(transaction.id);
    const created = await waitFor("?type=transaction.created", (items) => items.find((event) => event.resource.id === transaction.id));
    expect(created).toMatchObject({ type: "transaction.created", environment_id: orgid, resource: { type: "transaction", id: transaction.id } });
    const { id, type, status, direction, amount, asset, currency, amount_usd, category, merchant, card_id, bank_account_id, counterparty, chain_id, tx_hash, timestamp, created_at } = transaction;
    expect(created.data).toEqual({ id, user_id: user.id, type, status, direction, amount, asset, currency, amount_usd, category, merchant, wallet_id, card_id, bank_account_id, counterparty, chain_id, tx_hash, timestamp, created_at });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await events("?type=transaction.created")).filter((event) => event.resource.id === transaction.id)).toHaveLength(1);
  });

  it("stores nothing for a user of the default environment", async () => {
    const outsider = await registerInEnvironment("events-default", undefined);
    // a user of the organisation environment registered after it: once its event is stored, the earlier one was relayed too
    const marker = await registerInEnvironment("events-marker", orgid);
    await waitFor("?type=user.created", (items) => items.find((event) => event.resource.id === marker.id));
    expect((await events("?limit=200")).some((event) => event.resource.id === outsider.id)).toBe(false);
  });

  it("filters by resource, creation time and delivery success; an event owed to no endpoint matches neither delivery_success", async () => {
    const user = await registerInEnvironment("events-filters", orgid);
    const created = await waitFor(`?resource_id=${user.id}`, (items) => (items.length > 0 ? items : undefined));
    expect(created.map((event) => [event.type, event.resource.id])).toEqual([["user.created", user.id]]);
    const at = created[0]!.created_at;
    const ids = async (query: string) => (await events(`${query}&resource_id=${user.id}`)).map((event) => event.id);
    expect(await ids(`?created_after=${at - 1}`)).toEqual([created[0]!.id]);
    expect(await ids(`?created_after=${at}`)).toEqual([]);
    expect(await ids(`?created_before=${at + 1}`)).toEqual([created[0]!.id]);
    expect(await ids(`?created_before=${at}`)).toEqual([]);
    expect(await ids(`?created_after=${encodeURIComponent(new Date(at - 1).toISOString())}`)).toEqual([created[0]!.id]);
    expect(await ids("?delivery_success=false")).toEqual([]);
    expect(await ids("?delivery_success=true")).toEqual([]);
    for (const [query, field] of [["created_after=yesterday", "created_after"], ["delivery_success=maybe", "delivery_success"], ["resource_id=", "resource_id"]] as const) {
      const invalid = await platform.identity(`/v0/organisation/${ORG}/events?${query}`, { bearer: owner });
      expect(invalid.status, query).toBe(422);
      expect(await invalid.json(), query).toMatchObject({ error_code: "GEN-422-001", detail: [{ loc: ["query", field] }] });
    }
  });

  it("pages and filters: limit and offset as on the host's other lists, an unknown type is 422", async () => {
    expect((await platform.identity(`/v0/organisation/${ORG}/events?limit=10&offset=20`, { bearer: owner })).status).toBe(200);
    expect(await events("?limit=1")).toHaveLength(1);
    const tooMany = await platform.identity(`/v0/organisation/${ORG}/events?limit=201`, { bearer: owner });
    expect(tooMany.status).toBe(422);
    expect((await tooMany.json()).detail[0]).toMatchObject({ loc: ["query", "limit"] });
    const unknownType = await platform.identity(`/v0/organisation/${ORG}/events?type=user.exploded`, { bearer: owner });
    expect(unknownType.status).toBe(422);
  });

  it("answers 401 without a session, 404 to a member of another organisation and for an unknown event, 403 IDS-403-002 to an API key", async () => {
    const [stored] = await events("?limit=1");
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${ORG}/events`), 401, "IDS-401-002", "invalid_session");
    const outsider = await platform.dashboard.sign({ sub: "events-outsider" });
    const elsewhere = await platform.identity("/v0/organisations", { method: "POST", bearer: outsider, json: { name: "Elsewhere Ltd" } });
    expect(elsewhere.status).toBe(201);
    const otherOrg = (await elsewhere.json()).id;
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${ORG}/events`, { bearer: outsider }), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${ORG}/events/${stored!.id}`, { bearer: outsider }), 404, "IDS-404-001", "not_found");
    // the outsider's own organisation does not hold ORG's event
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${otherOrg}/events/${stored!.id}`, { bearer: outsider }), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${ORG}/events/evt_missing`, { bearer: owner }), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(await platform.identity("/v0/organisation/org_missing/events", { bearer: owner }), 404, "IDS-404-001", "not_found");
    const { key } = await (await mint({ name: "events", env_id: ENV, scopes: ["idsvc.lookup"] })).json();
    expect((await platform.identity(`/v0/organisation/${ORG}/events`, { bearer: key })).status).toBe(403);
  });

  it("is documented on the identity host with the envelope and the filters", async () => {
    const document = await (await platform.identity("/openapi.json")).json();
    const operation = document.paths["/v0/organisation/{org_id}/events"].get;
    expect(operation.security).toEqual([{ DashboardSession: [] }]);
    expect(operation.description).toContain("user.kyc_status_changed");
    const item = operation.responses["200"].content["application/json"].schema.properties.items.items;
    expect(Object.keys(item.properties).sort()).toEqual(["api_version", "created_at", "data", "environment_id", "id", "resource", "type"]);
    expect(operation.parameters.map((p: { name: string; in: string }) => `${p.in} ${p.name}`)).toEqual(expect.arrayContaining(["path org_id", "query limit", "query offset", "query type", "query env_id", "query resource_id", "query created_after", "query created_before", "query delivery_success"]));
    expect(document.paths["/v0/organisation/{org_id}/events/{event_id}"].get.operationId).toBe("getOrganisationEvent");
    // each type's delivery is an OpenAPI 3.1 webhook (test/unit/openapi-webhooks.test.ts checks them all)
    expect(document.webhooks["user.created"].post.requestBody.content["application/json"].schema.properties.data).toEqual({ $ref: "#/components/schemas/UserCreatedEvent" });
  });
});
