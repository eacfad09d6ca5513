import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityProblemCheck } from "../../support/identity.ts";
import { TestIssuer } from "../../support/jwt-issuer.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// An organisation's members on the identity host (spec 2.5, 4.6, 5.2).
let platform: TestPlatform;
let expectIdentityProblem: ReturnType<typeof identityProblemCheck>;

beforeAll(async () => {
  platform = await startTestPlatform();
  expectIdentityProblem = identityProblemCheck(platform);
});
afterAll(() => platform?.stop());

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

describe("member routes: errors and security", () => {
  it("answers 401 IDS-401-002 without a session, 403 IDS-403-003 to a plain member managing members, and 409 IDS-409-001 to adding a member twice", async () => {
    const founder = await platform.dashboard.sign({ sub: "guard-founder" });
    const orgId = (await (await platform.identity("/v0/organisations", { method: "POST", bearer: founder, json: { name: "Guarded Ltd" } })).json()).organisation.id;
    const members = `/v0/organisation/${orgId}/members`;
    const added = await platform.identity(members, { method: "POST", bearer: founder, json: { sub: "guard-member", role: "member" } });
    expect(added.status).toBe(201);
    const { id } = await added.json();
    await expectIdentityProblem(await platform.identity(members, { method: "POST", bearer: founder, json: { sub: "guard-member" } }), 409, "IDS-409-001", "conflict");
    const calls = [
      { path: members, method: "POST", json: { sub: "guard-other" } },
      { path: `${members}/${id}`, method: "PATCH", json: { role: "admin" } },
      { path: `${members}/${id}`, method: "DELETE" },
    ];
    const member = await platform.dashboard.sign({ sub: "guard-member" });
    expect((await platform.identity(members, { bearer: member })).status).toBe(200);
    for (const { path, method, json } of calls) {
      await expectIdentityProblem(await platform.identity(path, { method, bearer: member, ...(json && { json }) }), 403, "IDS-403-003", "insufficient_role");
      await expectIdentityProblem(await platform.identity(path, { method, ...(json && { json }) }), 401, "IDS-401-002", "invalid_session");
    }
    await expectIdentityProblem(await platform.identity(members), 401, "IDS-401-002", "invalid_session");
  });
});
