import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_WEBHOOK_ENDPOINTS } from "../../../lib/contracts/events.ts";
import { signingSecrets } from "../../../subgraphs/identity/webhook-endpoints/webhook-secrets.ts";
import { ENV, ORG, startBootstrappedIdentity, type BootstrappedIdentity } from "../../support/identity.ts";
import type { TestPlatform } from "../../support/platform.ts";

// Webhook endpoints of an organisation environment on the identity host (issue 29): CRUD, the URL
// and event type checks, sealed secrets shown once, rotation, and who may do what.

let platform: TestPlatform;
let owner: string;
let expectIdentityProblem: BootstrappedIdentity["expectIdentityProblem"];

beforeAll(async () => {
  ({ platform, owner, expectIdentityProblem } = await startBootstrappedIdentity());
});
afterAll(() => platform?.stop());

const endpoints = (orgId = ORG, envId = ENV) => `/v0/organisation/${orgId}/environments/${envId}/webhook-endpoints`;
type Call = { path: string; method?: string; json?: unknown };
const identityServices = () => (platform.subgraphs.identity as any).services;

async function create(body: Record<string, unknown>, bearer = owner, path = endpoints()) {
  const response = await platform.identity(path, { method: "POST", bearer, json: body });
  expect(response.status, JSON.stringify(body)).toBe(201);
  return response.json();
}

/** A new environment of ORG, so counts and lists start empty. */
async function newEnvironment(name: string, orgId = ORG, bearer = owner): Promise<string> {
  const response = await platform.identity(`/v0/organisation/${orgId}/environments`, { method: "POST", bearer, json: { name } });
  expect(response.status).toBe(201);
  return (await response.json()).id;
}

describe("webhook endpoints", () => {
  it("creates an endpoint with its secret shown once and stored sealed, lists, reads, updates and deletes it", async () => {
    const envId = await newEnvironment("Hooks");
    const response = await platform.identity(endpoints(ORG, envId), {
      method: "POST",
      bearer: owner,
      json: { url: "https://hooks.example.com/platform", event_types: ["user.created", "card.authorization_approved", "user.created"], description: "Production receiver" },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const created = await response.json();
    expect(created).toMatchObject({
      url: "https://hooks.example.com/platform",
      event_types: ["user.created", "card.authorization_approved"],
      description: "Production receiver",
      enabled: true,
      disabled_reason: null,
    });
    expect(created.id).toMatch(/^whe_[0-9a-z]{26}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice("whsec_".length), "base64")).toHaveLength(32);
    const self = `${platform.config.publicIdentityUrl}${endpoints(ORG, envId)}/${created.id}`;
    expect(created._links).toMatchObject({
      self: { href: self },
      update: { href: self, method: "PATCH" },
      delete: { href: self, method: "DELETE" },
      rotate_secret: { href: `${self}/rotate-secret`, method: "POST" },
      list: { href: `${platform.config.publicIdentityUrl}${endpoints(ORG, envId)}` },
    });

    const row = await identityServices().db.webhookEndpoint.findUnique({ where: { id: created.id } });
    expect(JSON.stringify(row)).not.toContain(created.secret.slice("whsec_".length));
    expect(signingSecrets(identityServices().webhookSecretCipher, row)).toEqual([created.secret]);

    const listed = await (await platform.identity(endpoints(ORG, envId), { bearer: owner })).json();
    expect(listed.items.map((item: { id: string }) => item.id)).toEqual([created.id]);
    expect(listed.items[0]).not.toHaveProperty("secret");
    const read = await platform.identity(`${endpoints(ORG, envId)}/${created.id}`, { bearer: owner });
    expect(read.status).toBe(200);
    const one = await read.json();
    expect(one).not.toHaveProperty("secret");
    expect(one).toMatchObject({ id: created.id, event_types: ["user.created", "card.authorization_approved"] });

    const patch = (json: unknown) => platform.identity(`${endpoints(ORG, envId)}/${created.id}`, { method: "PATCH", bearer: owner, json });
    const updated = await patch({ url: "https://hooks.example.com/v2", event_types: ["*"], description: null });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ url: "https://hooks.example.com/v2", event_types: ["*"], description: null, enabled: true });
    expect(await (await patch({ enabled: false })).json()).toMatchObject({ enabled: false, disabled_reason: "user" });
    // the delivery side disables an endpoint whose receiver answered 410; enabling it again clears the reason
    await identityServices().db.webhookEndpoint.update({ where: { id: created.id }, data: { disabled_reason: "gone" } });
    expect(await (await patch({ description: "still off" })).json()).toMatchObject({ enabled: false, disabled_reason: "gone" });
    expect(await (await patch({ enabled: true })).json()).toMatchObject({ enabled: true, disabled_reason: null, description: "still off" });

    const deleted = await platform.identity(`${endpoints(ORG, envId)}/${created.id}`, { method: "DELETE", bearer: owner });
    expect(deleted.status).toBe(204);
    await expectIdentityProblem(await platform.identity(`${endpoints(ORG, envId)}/${created.id}`, { bearer: owner }), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(await platform.identity(`${endpoints(ORG, envId)}/${created.id}`, { method: "DELETE", bearer: owner }), 404, "IDS-404-001", "not_found");
    expect((await (await platform.identity(endpoints(ORG, envId), { bearer: owner })).json()).items).toEqual([]);
  });

  it("creates a disabled endpoint with enabled: false", async () => {
    const created = await create({ url: "https://hooks.example.com/off", event_types: ["ramp.status_changed"], enabled: false });
    expect(created).toMatchObject({ enabled: false, disabled_reason: "user", description: null });
  });

  it("refuses a URL that is not https to a public host, and unknown or misplaced event types, with 422 at the field", async () => {
    const cases: [Record<string, unknown>, (string | number)[]][] = [
      [{ url: "not a url", event_types: ["*"] }, ["body", "url"]],
      [{ url: "http://hooks.example.com/platform", event_types: ["*"] }, ["body", "url"]],
      [{ url: "https://10.0.0.1/hook", event_types: ["*"] }, ["body", "url"]],
      [{ url: "https://169.254.169.254/latest", event_types: ["*"] }, ["body", "url"]],
      [{ url: "https://user:pass@hooks.example.com/", event_types: ["*"] }, ["body", "url"]],
      [{ url: "https://hooks.example.com/platform", event_types: ["user.created", "user.deleted"] }, ["body", "event_types", 1]],
      [{ url: "https://hooks.example.com/platform", event_types: [] }, ["body", "event_types"]],
      [{ url: "https://hooks.example.com/platform", event_types: ["*", "user.created"] }, ["body", "event_types"]],
      [{ event_types: ["*"] }, ["body", "url"]],
      [{ url: "https://hooks.example.com/platform" }, ["body", "event_types"]],
    ];
    for (const [body, loc] of cases) {
      const response = await platform.identity(endpoints(), { method: "POST", bearer: owner, json: body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      const problem = await response.json();
      expect(problem.error_code).toBe("GEN-422-001");
      expect(problem.detail[0].loc, JSON.stringify(body)).toEqual(loc);
    }
    const { id } = await create({ url: "https://hooks.example.com/checked", event_types: ["*"] });
    const refused = await platform.identity(`${endpoints()}/${id}`, { method: "PATCH", bearer: owner, json: { url: "https://192.168.1.10/hook" } });
    expect(refused.status).toBe(422);
    expect((await refused.json()).detail[0]).toMatchObject({ loc: ["body", "url"], msg: "Value error, must not point at a non-public address (private)" });
  });

  it("admits a loopback receiver in sandbox mode (WEBHOOK_ALLOW_LOOPBACK)", async () => {
    expect(platform.config.webhookUrlPolicy.allowLoopbackHttp).toBe(true);
    for (const url of ["http://127.0.0.1:3000/hook", "http://localhost:3000/hook"]) expect((await create({ url, event_types: ["*"] })).url).toBe(url);
  });

  it(`holds an environment to ${MAX_WEBHOOK_ENDPOINTS} endpoints (409 IDS-409-003); a deleted one makes room`, async () => {
    const envId = await newEnvironment("Crowded");
    const ids: string[] = [];
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++) ids.push((await create({ url: `https://hooks.example.com/${i}`, event_types: ["*"] }, owner, endpoints(ORG, envId))).id);
    const over = { method: "POST", bearer: owner, json: { url: "https://hooks.example.com/over", event_types: ["*"] } };
    await expectIdentityProblem(await platform.identity(endpoints(ORG, envId), over), 409, "IDS-409-003", "webhook_endpoint_limit");
    // other environments have their own room
    await create({ url: "https://hooks.example.com/elsewhere", event_types: ["*"] });
    expect((await platform.identity(`${endpoints(ORG, envId)}/${ids[0]}`, { method: "DELETE", bearer: owner })).status).toBe(204);
    expect((await platform.identity(endpoints(ORG, envId), over)).status).toBe(201);
  });
});

describe("secret rotation", () => {
  it("answers a new secret once; the previous one still signs during the overlap, and not after it", async () => {
    const created = await create({ url: "https://hooks.example.com/rotating", event_types: ["*"] });
    const rotate = (json: unknown) => platform.identity(`${endpoints()}/${created.id}/rotate-secret`, { method: "POST", bearer: owner, json });
    const before = Date.now();
    const response = await rotate({ overlap_seconds: 3600 });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const rotated = await response.json();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated._links.rotate_secret.method).toBe("POST");
    expect(await (await platform.identity(`${endpoints()}/${created.id}`, { bearer: owner })).json()).not.toHaveProperty("secret");

    const { db, webhookSecretCipher } = identityServices();
    const row = await db.webhookEndpoint.findUnique({ where: { id: created.id } });
    expect(JSON.stringify(row)).not.toContain(rotated.secret.slice("whsec_".length));
    expect(JSON.stringify(row)).not.toContain(created.secret.slice("whsec_".length));
    expect(row.previous_expires_at.getTime()).toBeGreaterThanOrEqual(before + 3_600_000);
    const expires = row.previous_expires_at.getTime();
    expect(signingSecrets(webhookSecretCipher, row, new Date(expires - 1))).toEqual([rotated.secret, created.secret]);
    expect(signingSecrets(webhookSecretCipher, row, new Date(expires))).toEqual([rotated.secret]);

    // the default overlap is a day; a rotation during an overlap drops the older secret
    const again = await (await rotate({})).json();
    const twice = await db.webhookEndpoint.findUnique({ where: { id: created.id } });
    expect(twice.previous_expires_at.getTime() - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
    expect(signingSecrets(webhookSecretCipher, twice)).toEqual([again.secret, rotated.secret]);

    // 0 ends the previous secret at once
    const last = await (await rotate({ overlap_seconds: 0 })).json();
    expect(signingSecrets(webhookSecretCipher, await db.webhookEndpoint.findUnique({ where: { id: created.id } }))).toEqual([last.secret]);

    for (const overlap_seconds of [-1, 7 * 86_400 + 1]) {
      const refused = await rotate({ overlap_seconds });
      expect(refused.status).toBe(422);
      expect((await refused.json()).detail[0].loc).toEqual(["body", "overlap_seconds"]);
    }
  });
});

describe("webhook endpoint routes: errors and security", () => {
  it("answers 401 IDS-401-002 without a session, 404 IDS-404-001 to a non-member, and to a plain member reads but 403 IDS-403-003 on writes", async () => {
    const { id } = await create({ url: "https://hooks.example.com/guarded", event_types: ["*"] });
    const item = `${endpoints()}/${id}`;
    const reads: Call[] = [{ path: endpoints() }, { path: item }];
    const writes: Call[] = [
      { path: endpoints(), method: "POST", json: { url: "https://hooks.example.com/x", event_types: ["*"] } },
      { path: item, method: "PATCH", json: { enabled: false } },
      { path: `${item}/rotate-secret`, method: "POST", json: {} },
      { path: item, method: "DELETE" },
    ];
    const stranger = await platform.dashboard.sign({ sub: "hooks-stranger" });
    for (const { path, method, json } of [...reads, ...writes]) {
      await expectIdentityProblem(await platform.identity(path, { method, ...(json !== undefined && { json }) }), 401, "IDS-401-002", "invalid_session");
      await expectIdentityProblem(await platform.identity(path, { method, bearer: stranger, ...(json !== undefined && { json }) }), 404, "IDS-404-001", "not_found");
    }

    expect((await platform.identity(`/v0/organisation/${ORG}/members`, { method: "POST", bearer: owner, json: { sub: "hooks-member", role: "member" } })).status).toBe(201);
    const member = await platform.dashboard.sign({ sub: "hooks-member" });
    for (const { path } of reads) expect((await platform.identity(path, { bearer: member })).status, path).toBe(200);
    for (const { path, method, json } of writes)
      await expectIdentityProblem(await platform.identity(path, { method, bearer: member, ...(json !== undefined && { json }) }), 403, "IDS-403-003", "insufficient_role");
    expect(await (await platform.identity(item, { bearer: owner })).json()).toMatchObject({ id, enabled: true });
  });

  it("answers 404 IDS-404-001 for an endpoint of another organisation or environment, and for an unknown environment", async () => {
    const { id } = await create({ url: "https://hooks.example.com/mine", event_types: ["*"] });
    const founder = await platform.dashboard.sign({ sub: "hooks-founder" });
    const founded = await platform.identity("/v0/organisations", { method: "POST", bearer: founder, json: { name: "Other Co" } });
    expect(founded.status).toBe(201);
    const otherOrg = (await founded.json()).organisation.id;
    const otherEnv = await newEnvironment("Theirs", otherOrg, founder);
    const otherEnvOfOrg = await newEnvironment("Mine too");
    for (const [path, bearer] of [
      [`${endpoints(otherOrg, otherEnv)}/${id}`, founder],
      [`${endpoints(ORG, otherEnvOfOrg)}/${id}`, owner],
      [`${endpoints(ORG, "env_missing")}/${id}`, owner],
      [`${endpoints()}/whe_missing`, owner],
    ] as const) {
      for (const init of [{}, { method: "PATCH", json: { enabled: false } }, { method: "POST", json: {}, suffix: "/rotate-secret" }, { method: "DELETE" }] as const) {
        const { suffix = "", ...rest } = init as { suffix?: string; method?: string; json?: unknown };
        await expectIdentityProblem(await platform.identity(`${path}${suffix}`, { bearer, ...rest }), 404, "IDS-404-001", "not_found");
      }
    }
    await expectIdentityProblem(await platform.identity(endpoints(ORG, "env_missing"), { bearer: owner }), 404, "IDS-404-001", "not_found");
    await expectIdentityProblem(
      await platform.identity(endpoints(ORG, "env_missing"), { method: "POST", bearer: owner, json: { url: "https://hooks.example.com/x", event_types: ["*"] } }),
      404,
      "IDS-404-001",
      "not_found",
    );
    expect((await (await platform.identity(endpoints(otherOrg, otherEnv), { bearer: founder })).json()).items).toEqual([]);
    expect(await (await platform.identity(`${endpoints()}/${id}`, { bearer: owner })).json()).toMatchObject({ id, enabled: true });
  });
});

describe("documented", () => {
  it("lists the routes in the identity host's /openapi.json under Webhook Endpoints", async () => {
    const document = await (await platform.identity("/openapi.json")).json();
    const list = "/v0/organisation/{org_id}/environments/{env_id}/webhook-endpoints";
    expect(Object.keys(document.paths[list])).toEqual(["get", "post"]);
    expect(Object.keys(document.paths[`${list}/{endpoint_id}`])).toEqual(["get", "patch", "delete"]);
    expect(Object.keys(document.paths[`${list}/{endpoint_id}/rotate-secret`])).toEqual(["post"]);
    expect(document.paths[list].post.tags).toEqual(["Webhook Endpoints"]);
    expect(document.paths[list].post.requestBody.content["application/json"].schema.properties.event_types.items.anyOf).toContainEqual({ const: "*", type: "string" });
  });
});
