import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityRoutes } from "../../../rest-adapter/hosts/identity.ts";
import { ENV, ORG, startBootstrappedIdentity, type BootstrappedIdentity } from "../../support/identity.ts";
import type { TestPlatform } from "../../support/platform.ts";

// Organisations and environments on the identity host (spec 2.5, 4.6, 5.2); its members, API keys
// and events are in test/e2e/members/, api-keys/ and events/.
let platform: TestPlatform;
let owner: string;
let expectIdentityProblem: BootstrappedIdentity["expectIdentityProblem"];
let mint: BootstrappedIdentity["mint"];

beforeAll(async () => {
  ({ platform, owner, expectIdentityProblem, mint } = await startBootstrappedIdentity());
});
afterAll(() => platform?.stop());

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

  it("reads value lists as enums (the same strings on the wire) and takes them in inputs, where GraphQL refuses another value", async () => {
    const graphql = (query: string) =>
      fetch(platform.urls.graphql, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${owner}` },
        body: JSON.stringify({ query }),
      }).then((r) => r.json());
    const created = await graphql(`mutation { create_environment(org_id: "${ORG}", input: { name: "inline-kind", kind: live }) { kind } }`);
    expect(created.errors).toBeUndefined();
    expect(created.data.create_environment).toEqual({ kind: "live" });
    const read = await graphql(`{ organisation(id: "${ORG}") { status members { status role } } }`);
    expect(read.data.organisation).toMatchObject({ status: "active", members: [{ status: "active", role: "owner" }] });
    const refused = await graphql(`mutation { create_environment(org_id: "${ORG}", input: { name: "bad-kind", kind: production }) { id } }`);
    expect(refused.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
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
