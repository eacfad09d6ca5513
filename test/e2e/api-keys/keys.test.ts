import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../../lib/auth/secret-token.ts";
import { ENV, ORG, startBootstrappedIdentity, type BootstrappedIdentity } from "../../support/identity.ts";
import type { TestPlatform } from "../../support/platform.ts";

// API keys on the identity host (spec 2.6, 4.7, 5.2).
let platform: TestPlatform;
let owner: string;
let expectIdentityProblem: BootstrappedIdentity["expectIdentityProblem"];
let mint: BootstrappedIdentity["mint"];

beforeAll(async () => {
  ({ platform, owner, expectIdentityProblem, mint } = await startBootstrappedIdentity());
});
afterAll(() => platform?.stop());

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

describe("API key routes: errors and security", () => {
  it("answers 401 IDS-401-002 without a session, 404 IDS-404-001 to a non-member and to an unknown key, and 403 IDS-403-003 to a plain member minting or revoking", async () => {
    const { id } = await (await mint({ name: "guarded", env_id: ENV, scopes: ["idsvc.lookup"] })).json();
    const keys = `/v0/organisation/${ORG}/keys`;
    const calls = [
      { path: keys, method: "POST", json: { name: "x", env_id: ENV, scopes: ["idsvc.lookup"] } },
      { path: keys, method: "GET" },
      { path: `${keys}/${id}`, method: "GET" },
      { path: `${keys}/${id}`, method: "DELETE" },
    ];
    const stranger = await platform.dashboard.sign({ sub: "keys-stranger" });
    for (const { path, method, json } of calls) {
      await expectIdentityProblem(await platform.identity(path, { method, ...(json && { json }) }), 401, "IDS-401-002", "invalid_session");
      await expectIdentityProblem(await platform.identity(path, { method, bearer: stranger, ...(json && { json }) }), 404, "IDS-404-001", "not_found");
    }
    await expectIdentityProblem(await platform.identity(`${keys}/key_missing`, { bearer: owner }), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(await platform.identity(`${keys}/key_missing`, { method: "DELETE", bearer: owner }), 404, "IDS-404-001", "not_found");

    expect((await platform.identity(`/v0/organisation/${ORG}/members`, { method: "POST", bearer: owner, json: { sub: "keys-member", role: "member" } })).status).toBe(201);
    const member = await platform.dashboard.sign({ sub: "keys-member" });
    expect((await platform.identity(keys, { bearer: member })).status).toBe(200);
    await expectIdentityProblem(await mint({ name: "x", env_id: ENV, scopes: ["idsvc.lookup"] }, member), 403, "IDS-403-003", "insufficient_role");
    await expectIdentityProblem(await platform.identity(`${keys}/${id}`, { method: "DELETE", bearer: member }), 403, "IDS-403-003", "insufficient_role");
    expect((await platform.identity(`${keys}/${id}`, { bearer: owner })).status).toBe(200);
  });
});
