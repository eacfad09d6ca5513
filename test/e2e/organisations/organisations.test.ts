import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../../lib/auth/secret-token.ts";
import { identityRoutes } from "../../../rest-adapter/identity.ts";
import { TestIssuer } from "../../support/jwt-issuer.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Organisations, members, environments and API keys on the identity host (spec 2.5, 2.6, 4.6, 4.7, 5.2).
let platform: TestPlatform;
let owner: string;
const ORG = "org_boot";
const ENV = "env_boot";

beforeAll(async () => {
  platform = await startTestPlatform({
    IDENTITY_BOOTSTRAP: JSON.stringify({
      organisation: { id: ORG, name: "Bootstrap Ltd", contact_email: "ops@boot.test" },
      environment: { id: ENV, name: "Development" },
      members: [{ sub: "dash-owner", email: "owner@boot.test", name: "Owner" }],
    }),
  });
  owner = await platform.dashboard.sign({ sub: "dash-owner" });
});
afterAll(() => platform?.stop());

async function expectIdentityProblem(response: Response, status: number, code: string, typeName: string) {
  expect(response.status).toBe(status);
  const problem = await response.json();
  expect(problem).toMatchObject({
    status,
    error_code: code,
    type: `${platform.config.docsUrl}/errors/${typeName}`,
    documentation: `${platform.config.docsUrl}/errors/${code}`,
    trace_id: response.headers.get("x-request-id"),
  });
  return problem;
}

async function mint(body: unknown, bearer = owner) {
  return platform.identity(`/v0/organisation/${ORG}/keys`, { method: "POST", bearer, json: body });
}

describe("organisations", () => {
  it("serves the bootstrapped organisation to its member, with the wrapper links of spec 2.5", async () => {
    const response = await platform.identity(`/v0/organisation/${ORG}`, { bearer: owner });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.organisation).toMatchObject({ id: ORG, name: "Bootstrap Ltd", status: "active", contact_email: "ops@boot.test" });
    expect(body.organisation.members).toEqual([expect.objectContaining({ sub: "dash-owner", role: "owner", status: "active", email: "owner@boot.test" })]);
    expect(body.organisation.environments).toEqual([expect.objectContaining({ id: ENV, name: "Development", kind: "test" })]);
    expect(Number.isInteger(body.organisation.created_at)).toBe(true);
    expect(Object.keys(body._links).sort()).toEqual(["environments", "events", "keys", "members", "self"]);
    expect(body._links.self.href).toBe(`${platform.config.publicIdentityUrl}/v0/organisation/${ORG}`);
  });

  it("answers 404 to non-members (ids cannot be probed) and 401 without a session", async () => {
    const stranger = await platform.dashboard.sign({ sub: "someone-else" });
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${ORG}`, { bearer: stranger }), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(await platform.identity("/v0/organisation/org_missing", { bearer: stranger }), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${ORG}`), 401, "IDS-401-002", "invalid_session");
    const expired = await platform.dashboard.sign({ sub: "dash-owner", exp: Math.floor(Date.now() / 1000) - 10 });
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${ORG}`, { bearer: expired }), 401, "IDS-401-002", "invalid_session");
    // a platform JWT is not a dashboard session
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${ORG}`, { bearer: await platform.issuer.sign({ sub: "dash-owner" }) }), 401, "IDS-401-002", "invalid_session");
  });

  it("renames the organisation and validates contact_email", async () => {
    const response = await platform.identity(`/v0/organisation/${ORG}`, { method: "PATCH", bearer: owner, json: { name: "Renamed Ltd", contact_email: "new@boot.test" } });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.organisation).toMatchObject({ name: "Renamed Ltd", contact_email: "new@boot.test" });
    expect(Object.keys(body._links).sort()).toEqual(["environments", "events", "keys", "members", "self"]);
    const invalid = await platform.identity(`/v0/organisation/${ORG}`, { method: "PATCH", bearer: owner, json: { contact_email: "not-an-email" } });
    expect(invalid.status).toBe(422);
    const problem = await invalid.json();
    expect(problem.detail[0]).toMatchObject({ loc: ["body", "contact_email"] });
    expect(problem.type).toBe(`${platform.config.docsUrl}/errors/validation_error`);
  });

  it("creates an organisation whose creator is the owner; members manage access by role", async () => {
    const founder = await platform.dashboard.sign({ sub: "founder" });
    const created = await platform.identity("/v0/organisations", { method: "POST", bearer: founder, json: { name: "New Co" } });
    expect(created.status).toBe(201);
    const orgId = (await created.json()).organisation.id;
    const added = await platform.identity(`/v0/organisation/${orgId}/members`, { method: "POST", bearer: founder, json: { sub: "teammate", role: "member" } });
    expect(added.status).toBe(201);
    const teammate = await platform.dashboard.sign({ sub: "teammate" });
    expect((await platform.identity(`/v0/organisation/${orgId}`, { bearer: teammate })).status).toBe(200);
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${orgId}`, { method: "PATCH", bearer: teammate, json: { name: "x" } }), 403, "IDS-403-003", "insufficient_role");
    await expectIdentityProblem(
      await platform.identity(`/v0/organisation/${orgId}/members`, { method: "POST", bearer: founder, json: { sub: "teammate" } }),
      409,
      "IDS-409-001",
      "conflict",
    );
    const members = await (await platform.identity(`/v0/organisation/${orgId}/members`, { bearer: founder })).json();
    const founderId = members.items.find((m: { sub: string }) => m.sub === "founder").id;
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${orgId}/members/${founderId}`, { method: "DELETE", bearer: founder }), 409, "IDS-409-002", "last_owner");
  });
});

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

// Security review item 9: admins manage members, but only owners touch the owner role.
describe("roles", () => {
  let orgId: string;
  let founder: string;
  let admin: string;
  const members = (org: string) => `/v0/organisation/${org}/members`;
  const memberId = async (sub: string) =>
    (await (await platform.identity(members(orgId), { bearer: founder })).json()).items.find((m: { sub: string }) => m.sub === sub).id as string;
  const patch = (bearer: string, id: string, role: string) => platform.identity(`${members(orgId)}/${id}`, { method: "PATCH", bearer, json: { role } });

  beforeAll(async () => {
    founder = await platform.dashboard.sign({ sub: "roles-founder" });
    admin = await platform.dashboard.sign({ sub: "roles-admin" });
    orgId = (await (await platform.identity("/v0/organisations", { method: "POST", bearer: founder, json: { name: "Roles Ltd" } })).json()).organisation.id;
    expect((await platform.identity(members(orgId), { method: "POST", bearer: founder, json: { sub: "roles-admin", role: "admin" } })).status).toBe(201);
  });

  it("refuses an admin every move that grants or takes away the owner role (403 IDS-403-004), and changes nothing", async () => {
    const founderId = await memberId("roles-founder");
    const adminId = await memberId("roles-admin");
    await expectIdentityProblem(await platform.identity(members(orgId), { method: "POST", bearer: admin, json: { sub: "admin-made-owner", role: "owner" } }), 403, "IDS-403-004", "owner_required");
    await expectIdentityProblem(await patch(admin, adminId, "owner"), 403, "IDS-403-004", "owner_required");
    await expectIdentityProblem(await patch(admin, founderId, "member"), 403, "IDS-403-004", "owner_required");
    await expectIdentityProblem(await platform.identity(`${members(orgId)}/${founderId}`, { method: "DELETE", bearer: admin }), 403, "IDS-403-004", "owner_required");
    const after = (await (await platform.identity(members(orgId), { bearer: founder })).json()).items;
    expect(after.map((m: { sub: string; role: string }) => [m.sub, m.role])).toEqual([["roles-founder", "owner"], ["roles-admin", "admin"]]);

    // what admins may do: add and promote non-owners
    const added = await platform.identity(members(orgId), { method: "POST", bearer: admin, json: { sub: "roles-member" } });
    expect(added.status).toBe(201);
    const promoted = await patch(admin, (await added.json()).id, "admin");
    expect(promoted.status).toBe(200);
    expect(await promoted.json()).toMatchObject({ sub: "roles-member", role: "admin" });
  });

  it("lets an owner grant and take away owner, but never demote or remove the last owner (409 IDS-409-002)", async () => {
    const founderId = await memberId("roles-founder");
    const adminId = await memberId("roles-admin");
    await expectIdentityProblem(await patch(founder, founderId, "admin"), 409, "IDS-409-002", "last_owner");
    expect((await patch(founder, adminId, "owner")).status).toBe(200);
    // two owners: one may step down, then the other is the last again
    expect((await patch(admin, founderId, "member")).status).toBe(200);
    await expectIdentityProblem(await patch(admin, adminId, "member"), 409, "IDS-409-002", "last_owner");
    await expectIdentityProblem(await platform.identity(`${members(orgId)}/${adminId}`, { method: "DELETE", bearer: admin }), 409, "IDS-409-002", "last_owner");
    const invalid = await patch(admin, founderId, "superuser");
    expect(invalid.status).toBe(422);
  });
});

// Security review item 8: one `sub` at two DASHBOARD_AUTH issuers is two different people.
describe("membership by issuer and subject", () => {
  let two: TestPlatform;
  let first: TestIssuer;
  let second: TestIssuer;
  const ORG2 = "org_two_issuers";

  beforeAll(async () => {
    [first, second] = [await TestIssuer.start(), await TestIssuer.start()];
    two = await startTestPlatform({
      JWKS_ALLOW_LOOPBACK_HTTP: "true",
      DASHBOARD_AUTH: JSON.stringify([
        { name: "first", issuer: first.issuer, jwks_uri: first.jwksUri },
        { name: "second", issuer: second.issuer, jwks_uri: second.jwksUri },
      ]),
      IDENTITY_BOOTSTRAP: JSON.stringify({ organisation: { id: ORG2, name: "Two Issuers" }, environment: { id: "env_two", name: "Dev" }, members: [{ issuer: first.issuer, sub: "shared-sub" }] }),
    });
  });
  afterAll(async () => {
    await two?.stop();
    await first?.stop();
    await second?.stop();
  });

  it("does not let a token from a second issuer with the same sub in", async () => {
    const member = await first.sign({ sub: "shared-sub" });
    const impostor = await second.sign({ sub: "shared-sub" });
    const mine = await two.identity(`/v0/organisation/${ORG2}`, { bearer: member });
    expect(mine.status).toBe(200);
    expect((await mine.json()).organisation.members).toEqual([expect.objectContaining({ issuer: first.issuer, sub: "shared-sub", role: "owner" })]);
    const refused = await two.identity(`/v0/organisation/${ORG2}`, { bearer: impostor });
    expect(refused.status).toBe(404);
    expect((await refused.json()).error_code).toBe("IDS-404-001");
    expect((await two.identity(`/v0/organisation/${ORG2}/keys`, { method: "POST", bearer: impostor, json: { name: "x", env_id: "env_two", scopes: ["idsvc.lookup"] } })).status).toBe(404);
  });

  it("adds members by issuer and subject: the caller's issuer by default, another DASHBOARD_AUTH issuer when named, no other", async () => {
    const owner2 = await first.sign({ sub: "shared-sub" });
    const add = (json: unknown) => two.identity(`/v0/organisation/${ORG2}/members`, { method: "POST", bearer: owner2, json });
    const byDefault = await add({ sub: "colleague" });
    expect(byDefault.status).toBe(201);
    expect(await byDefault.json()).toMatchObject({ issuer: first.issuer, sub: "colleague" });
    expect((await two.identity(`/v0/organisation/${ORG2}`, { bearer: await second.sign({ sub: "colleague" }) })).status).toBe(404);

    const named = await add({ issuer: second.issuer, sub: "colleague" });
    expect(named.status).toBe(201);
    expect((await two.identity(`/v0/organisation/${ORG2}`, { bearer: await second.sign({ sub: "colleague" }) })).status).toBe(200);
    expect((await add({ issuer: second.issuer, sub: "colleague" })).status).toBe(409);

    const unknown = await add({ issuer: "https://not-a-dashboard-issuer.test", sub: "colleague" });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).detail[0]).toMatchObject({ loc: ["body", "issuer"] });
  });
});

describe("/graphql for dashboards", () => {
  it("answers organisation operations with the dashboard session as Bearer, and hides other organisations", async () => {
    const query = (bearer: string, id: string) =>
      fetch(platform.urls.graphql, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${bearer}` },
        body: JSON.stringify({ query: "query ($id: ID!) { organisation(id: $id) { id members { sub role } environments { id } } }", variables: { id } }),
      }).then((r) => r.json());
    const mine = await query(owner, ORG);
    expect(mine.errors).toBeUndefined();
    expect(mine.data.organisation).toMatchObject({ id: ORG, members: [{ sub: "dash-owner", role: "owner" }] });
    const stranger = await query(await platform.dashboard.sign({ sub: "graphql-stranger" }), ORG);
    expect(stranger.errors[0].extensions).toMatchObject({ error_code: "IDS-404-001", status: 404 });

    const minted = await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${owner}` },
      body: JSON.stringify({
        query: "mutation ($org: ID!, $input: MintApiKeyInput!) { mint_api_key(org_id: $org, input: $input) { partition key } }",
        variables: { org: ORG, input: { name: "from-graphql", env_id: ENV, scopes: ["idsvc.lookup", "rpc.invoke"] } },
      }),
    }).then((r) => r.json());
    expect(minted.errors[0].extensions).toMatchObject({ error_code: "IDS-422-006" });
  });

  it("reads value lists as enums (the same strings on the wire) and takes them in inputs as inline strings, checked against the same lists", async () => {
    const graphql = (query: string) =>
      fetch(platform.urls.graphql, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${owner}` },
        body: JSON.stringify({ query }),
      }).then((r) => r.json());
    const created = await graphql(`mutation { create_environment(org_id: "${ORG}", input: { name: "inline-kind", kind: "live" }) { kind } }`);
    expect(created.errors).toBeUndefined();
    expect(created.data.create_environment).toEqual({ kind: "live" });
    const read = await graphql(`{ organisation(id: "${ORG}") { status members { status role } } }`);
    expect(read.data.organisation).toMatchObject({ status: "active", members: [{ status: "active", role: "owner" }] });
    const refused = await graphql(`mutation { create_environment(org_id: "${ORG}", input: { name: "bad-kind", kind: "production" }) { id } }`);
    expect(refused.errors[0].extensions).toMatchObject({ error_code: "GEN-422-001", validation: [{ loc: ["kind"], type: "enum" }] });
  });
});

describe("API keys", () => {
  it("mints a server key once: partition from the scopes, prefix shows partition and environment kind, only the hash stored", async () => {
    const response = await mint({ name: "backend", env_id: ENV, scopes: ["idsvc.lookup", "idsvc.get_kyc"] });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({ name: "backend", partition: "server", scopes: ["idsvc.lookup", "idsvc.get_kyc"], meta: { org_id: ORG, env_id: ENV } });
    expect(body.key).toMatch(/^idsvc_sk_test_[0-9A-Za-z]{46}$/);
    expect(Object.keys(body._links).sort()).toEqual(["environment", "list", "organisation", "revoke", "self"]);
    expect(body._links.revoke.method).toBe("DELETE");
    const row = await (platform.subgraphs.identity as any).services.db.apiKey.findUnique({ where: { id: body.id } });
    expect(row.key_hash).toBe(hashToken(body.key));
    expect(JSON.stringify(row)).not.toContain(body.key);

    const listed = await (await platform.identity(`/v0/organisation/${ORG}/keys`, { bearer: owner })).json();
    expect(listed.items.find((k: { id: string }) => k.id === body.id)).not.toHaveProperty("key");
    const one = await (await platform.identity(`/v0/organisation/${ORG}/keys/${body.id}`, { bearer: owner })).json();
    expect(one).not.toHaveProperty("key");
    expect(one.key_last_four).toBe(body.key.slice(-4));
  });

  it("mints a public key with rpc_endpoint and rpc_docs links", async () => {
    const body = await (await mint({ name: "browser", env_id: ENV, scopes: ["rpc.invoke"] })).json();
    expect(body.partition).toBe("public");
    expect(body.key).toMatch(/^idsvc_pk_test_/);
    expect(body._links.rpc_endpoint.href).toBe(platform.config.publicRpcUrl);
    expect(body._links.rpc_docs.href).toContain(platform.config.publicRpcUrl);
  });

  it("refuses empty, unknown and mixed scopes with 422 IDS-422-006, and missing fields with the framework 422", async () => {
    for (const scopes of [[], ["idsvc.nope"], ["idsvc.lookup", "rpc.invoke"]]) {
      const problem = await expectIdentityProblem(await mint({ name: "x", env_id: ENV, scopes }), 422, "IDS-422-006", "invalid_scopes");
      expect(problem.title).toBe("Invalid Scopes");
    }
    for (const body of [{ name: "x", env_id: ENV }, { name: "x", scopes: ["idsvc.lookup"] }]) {
      const response = await mint(body);
      expect(response.status).toBe(422);
      const problem = await response.json();
      expect(problem.detail[0]).toMatchObject({ type: "missing", msg: "Field required" });
    }
    await expectIdentityProblem(await mint({ name: "x", env_id: "env_elsewhere", scopes: ["idsvc.lookup"] }), 422, "IDS-422-007", "invalid_environment");
  });

  it("authenticates with the key until it is revoked: revocation takes effect on the next request", async () => {
    const { id, key } = await (await mint({ name: "temporary", env_id: ENV, scopes: ["idsvc.lookup"] })).json();
    const me = await platform.identity("/v0/idsvc/key", { bearer: key });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ id, partition: "server", scopes: ["idsvc.lookup"] });
    expect((await platform.identity(`/v0/organisation/${ORG}/keys/${id}`, { method: "DELETE", bearer: owner })).status).toBe(200);
    await expectIdentityProblem(await platform.identity("/v0/idsvc/key", { bearer: key }), 401, "IDS-401-001", "invalid_api_key");
    await expectIdentityProblem(await platform.identity("/v0/idsvc/key", { bearer: `${key.slice(0, -1)}x` }), 401, "IDS-401-001", "invalid_api_key");
    await expectIdentityProblem(await platform.identity("/v0/idsvc/key"), 401, "IDS-401-001", "invalid_api_key");
    // an API key is not a dashboard session
    const other = (await (await mint({ name: "other", env_id: ENV, scopes: ["idsvc.lookup"] })).json()).key;
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${ORG}`, { bearer: other }), 403, "IDS-403-002", "wrong_credential");
    // and never a platform credential
    expect((await platform.api("/v0/user/me", { headers: { authorization: `Bearer ${other}` } })).status).toBe(401);
  });
});

// Security review (low): an organisation that is not active has no working keys.
describe("a suspended organisation", () => {
  it("loses its keys from the next request on, and gets them back when it is active again", async () => {
    const { key } = await (await mint({ name: "suspension", env_id: ENV, scopes: ["idsvc.lookup"] })).json();
    expect((await platform.identity("/v0/idsvc/key", { bearer: key })).status).toBe(200);
    const db = (platform.subgraphs.identity as any).services.db;
    await db.organisation.update({ where: { id: ORG }, data: { status: "suspended" } });
    try {
      await expectIdentityProblem(await platform.identity("/v0/idsvc/key", { bearer: key }), 401, "IDS-401-001", "invalid_api_key");
    } finally {
      await db.organisation.update({ where: { id: ORG }, data: { status: "active" } });
    }
    expect((await platform.identity("/v0/idsvc/key", { bearer: key })).status).toBe(200);
  });
});

describe("environments", () => {
  it("creates, reads and deletes an environment (204); its keys stop authenticating", async () => {
    const created = await platform.identity(`/v0/organisation/${ORG}/environments`, { method: "POST", bearer: owner, json: { name: "Production", kind: "live" } });
    expect(created.status).toBe(201);
    const environment = await created.json();
    expect(environment).toMatchObject({ name: "Production", kind: "live", auth: { is_active: true, credentials: { environment_id: environment.id, api_key: null } } });
    const read = await platform.identity(`/v0/organisation/${ORG}/environments/${environment.id}`, { bearer: owner });
    expect(read.status).toBe(200);
    const { key } = await (await mint({ name: "prod", env_id: environment.id, scopes: ["idsvc.lookup"] })).json();
    expect(key).toMatch(/^idsvc_sk_live_/);
    expect((await platform.identity("/v0/idsvc/key", { bearer: key })).status).toBe(200);

    const deleted = await platform.identity(`/v0/organisation/${ORG}/environments/${environment.id}`, { method: "DELETE", bearer: owner });
    expect(deleted.status).toBe(204);
    await expectIdentityProblem(await platform.identity("/v0/idsvc/key", { bearer: key }), 401, "IDS-401-001", "invalid_api_key");
    await expectIdentityProblem(await platform.identity(`/v0/organisation/${ORG}/environments/${environment.id}`, { bearer: owner }), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(await mint({ name: "late", env_id: environment.id, scopes: ["idsvc.lookup"] }), 422, "IDS-422-007", "invalid_environment");
  });

  it("documents every identity route and its Bearer schemes in the identity host's /openapi.json", async () => {
    const document = await (await platform.identity("/openapi.json")).json();
    expect(document.openapi).toMatch(/^3\.1\./);
    for (const route of identityRoutes) expect(document.paths[route.path]?.[route.method.toLowerCase()]?.operationId, route.operationId).toBe(route.operationId);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(["ApiKey", "DashboardSession", "PintToken"]);
    expect(document.paths["/v0/organisation/{org_id}/keys"].post.description).toContain("IDS-422-006");
  });

  it("answers unknown paths on the identity host in its own error style", async () => {
    await expectIdentityProblem(await platform.identity("/v0/nothing-here"), 404, "GEN-404-001", "not_found");
  });
});
