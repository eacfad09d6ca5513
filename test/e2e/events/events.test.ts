import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENV, ORG, startBootstrappedIdentity, type BootstrappedIdentity } from "../../support/identity.ts";
import type { TestPlatform } from "../../support/platform.ts";

// An organisation's events on the identity host (spec 2.5, 6).
let platform: TestPlatform;
let owner: string;
let expectIdentityProblem: BootstrappedIdentity["expectIdentityProblem"];
let mint: BootstrappedIdentity["mint"];

beforeAll(async () => {
  ({ platform, owner, expectIdentityProblem, mint } = await startBootstrappedIdentity());
});
afterAll(() => platform?.stop());

// Issue 25 item 6: spec 2.5 names `_links.events`; until outgoing events exist (spec 6) it answers an empty list.
describe("organisation events", () => {
  it("resolves every link of the organisation wrapper for its member, events included", async () => {
    const { _links } = await (await platform.identity(`/v0/organisation/${ORG}`, { bearer: owner })).json();
    for (const [name, { href }] of Object.entries(_links as Record<string, { href: string }>)) {
      expect(href.startsWith(platform.config.publicIdentityUrl), name).toBe(true);
      expect((await platform.identity(href.slice(platform.config.publicIdentityUrl.length), { bearer: owner })).status, name).toBe(200);
    }
  });

  it("lists no events yet, in the host's list shape, paged like its other lists", async () => {
    const response = await platform.identity(`/v0/organisation/${ORG}/events`, { bearer: owner });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ items: [], _links: { self: { href: `${platform.config.publicIdentityUrl}/v0/organisation/${ORG}/events` } } });
    expect((await platform.identity(`/v0/organisation/${ORG}/events?limit=10&offset=20`, { bearer: owner })).status).toBe(200);
    const tooMany = await platform.identity(`/v0/organisation/${ORG}/events?limit=201`, { bearer: owner });
    expect(tooMany.status).toBe(422);
    expect((await tooMany.json()).detail[0]).toMatchObject({ loc: ["query", "limit"] });
  });

  it("answers 401 without a session, 404 to a member of another organisation, 403 IDS-403-002 to an API key", async () => {
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${ORG}/events`), 401, "IDS-401-002", "invalid_session");
    const outsider = await platform.dashboard.sign({ sub: "events-outsider" });
    expect((await platform.identity("/v0/organisations", { method: "POST", bearer: outsider, json: { name: "Elsewhere Ltd" } })).status).toBe(201);
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${ORG}/events`, { bearer: outsider }), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(await platform.identity("/v0/organisation/org_missing/events", { bearer: owner }), 404, "IDS-404-001", "not_found");
    const { key } = await (await mint({ name: "events", env_id: ENV, scopes: ["idsvc.lookup"] })).json();
    expect((await platform.identity(`/v0/organisation/${ORG}/events`, { bearer: key })).status).toBe(403);
  });

  it("is documented on the identity host, saying that no events are emitted yet", async () => {
    const document = await (await platform.identity("/openapi.json")).json();
    const operation = document.paths["/v0/organisation/{org_id}/events"].get;
    expect(operation.security).toEqual([{ DashboardSession: [] }]);
    expect(operation.description).toContain("No events are emitted yet");
    const item = operation.responses["200"].content["application/json"].schema.properties.items.items;
    expect(Object.keys(item.properties).sort()).toEqual(["api_version", "created_at", "data", "id", "type"]);
    expect(operation.parameters.map((p: { name: string; in: string }) => `${p.in} ${p.name}`)).toEqual(expect.arrayContaining(["path org_id", "query limit", "query offset"]));
  });
});
