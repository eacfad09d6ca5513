import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SigningKey } from "../../../lib/auth/signing-key.ts";
import { TestIssuer } from "../../support/jwt-issuer.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { registrationBody } from "../../support/registration.ts";

// Spec 2.5 and 5.1: an environment's `auth` names the providers its users sign in with;
// `x-platform-orgid: <org>:<env>` resolves there, and users are scoped to their environment.
const ORG = "org_envauth";
const ENV = "env_envauth";
// short, so changes reach the gateway within the test; the default is 30 s
const CACHE_TTL_MS = 150;

let platform: TestPlatform;
let providerB: TestIssuer;
let owner: string;
let signingKey: SigningKey;

beforeAll(async () => {
  providerB = await TestIssuer.start();
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const privateJwk = { ...(await exportJWK(privateKey)), alg: "ES256", kid: "platform-1" };
  signingKey = await SigningKey.fromJwk(privateJwk);
  platform = await startTestPlatform({
    ENVIRONMENT_CACHE_TTL_MS: String(CACHE_TTL_MS),
    SIGNING_KEY: JSON.stringify(privateJwk),
    IDENTITY_BOOTSTRAP: JSON.stringify({
      organisation: { id: ORG, name: "Env Auth Ltd" },
      environment: { id: ENV, name: "Bootstrap" },
      members: [{ sub: "envauth-owner" }],
    }),
  });
  owner = await platform.dashboard.sign({ sub: "envauth-owner" });
});
afterAll(async () => {
  await platform?.stop();
  await providerB?.stop();
});

const providerBEntry = () => ({ name: "provider_b", issuer: providerB.issuer, jwks_uri: providerB.jwksUri, audience: "app-b" });
const providerAEntry = () => ({ name: "provider_a", issuer: platform.issuer.issuer, jwks_uri: platform.issuer.jwksUri });

async function createEnvironment(body: Record<string, unknown>): Promise<{ id: string; orgid: string; body: any }> {
  const response = await platform.identity(`/v0/organisation/${ORG}/environments`, { method: "POST", bearer: owner, json: { name: "Env", ...body } });
  const created = await response.json();
  expect(response.status, JSON.stringify(created)).toBe(201);
  return { id: created.id, orgid: `${ORG}:${created.id}`, body: created };
}

function patchEnvironment(envId: string, body: Record<string, unknown>, bearer = owner) {
  return platform.identity(`/v0/organisation/${ORG}/environments/${envId}`, { method: "PATCH", bearer, json: body });
}

function me(jwt: string, orgid?: string) {
  return platform.api("/v0/user/me", { jwt, ...(orgid !== undefined && { headers: { "x-platform-orgid": orgid } }) });
}

async function register(jwt: string, orgid?: string) {
  return platform.api("/v0/user/", {
    method: "POST",
    jwt,
    ...(orgid !== undefined && { headers: { "x-platform-orgid": orgid } }),
    json: await registrationBody(jwt, { environment_id: orgid ?? "default" }),
  });
}

async function expectProblem(response: Response, status: number, code: string) {
  const body = await response.json();
  expect({ status: response.status, code: body.error_code }, JSON.stringify(body)).toEqual({ status, code });
  return body;
}

/** Retries until the gateway's environment cache has expired and the check passes. */
async function eventually(check: () => Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, CACHE_TTL_MS / 3));
    }
  }
}

describe("an environment's providers (x-platform-orgid <org>:<env>)", () => {
  it("accepts a JWT of its provider_b and refuses provider_a's (401 USR-401-001)", async () => {
    const env = await createEnvironment({ name: "Production", auth_providers: [providerBEntry()] });
    expect(env.body.auth).toMatchObject({ provider: "provider_b", providers: ["provider_b"], is_active: true, provider_configs: [providerBEntry()] });

    const jwtB = await providerB.sign({ sub: "b-user", aud: "app-b" });
    const created = await register(jwtB, env.orgid);
    expect(created.status).toBe(201);
    const { id } = await created.json();
    const read = await me(jwtB, env.orgid);
    expect(read.status).toBe(200);
    expect((await read.json()).id).toBe(id);

    // provider_a is the default environment's, not this one's
    await expectProblem(await me(await platform.issuer.sign({ sub: "b-user" }), env.orgid), 401, "USR-401-001");
    await expectProblem(await register(await platform.issuer.sign(), env.orgid), 401, "USR-401-001");
    // the environment's audience is checked
    await expectProblem(await me(await providerB.sign({ sub: "b-user", aud: "another-app" }), env.orgid), 401, "USR-401-001");
    // and provider_b's tokens are not accepted in the default environment
    await expectProblem(await me(jwtB), 401, "USR-401-001");
  });

  it("scopes users to their environment: one subject registers separately in the default environment and in <org>:<env>", async () => {
    const env = await createEnvironment({ name: "Shared issuer", auth_providers: [providerAEntry()] });
    const jwt = await platform.issuer.sign({ sub: "same-subject" });

    await expectProblem(await me(jwt, env.orgid), 404, "USR-404-001");
    const inDefault = await register(jwt);
    expect(inDefault.status).toBe(201);
    const defaultUser = (await inDefault.json()).id;
    // still no user in the environment: the default environment's user does not count there
    await expectProblem(await me(jwt, env.orgid), 404, "USR-404-001");
    const inEnvironment = await register(jwt, env.orgid);
    expect(inEnvironment.status).toBe(201);
    const environmentUser = (await inEnvironment.json()).id;
    expect(environmentUser).not.toBe(defaultUser);

    expect((await (await me(jwt)).json()).id).toBe(defaultUser);
    expect((await (await me(jwt, env.orgid)).json()).id).toBe(environmentUser);
    await expectProblem(await register(jwt, env.orgid), 409, "USR-409-001");
  });

  it("stops accepting a deleted environment's JWTs and PATs (401 USR-401-003)", async () => {
    const env = await createEnvironment({ name: "Short-lived", auth_providers: [providerBEntry()] });
    const jwt = await providerB.sign({ sub: "deleted-env-user", aud: "app-b" });
    expect((await register(jwt, env.orgid)).status).toBe(201);
    const pat = await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt, headers: { "x-platform-orgid": env.orgid }, json: { name: "cli", scopes: ["read"] } });
    expect(pat.status).toBe(201);
    const { token } = await pat.json();
    expect((await platform.api("/v0/user/me", { pat: token })).status).toBe(200);

    expect((await platform.identity(`/v0/organisation/${ORG}/environments/${env.id}`, { method: "DELETE", bearer: owner })).status).toBe(204);
    await eventually(async () => {
      await expectProblem(await me(jwt, env.orgid), 401, "USR-401-003");
    });
    // the token names its user's environment: without the header it is refused too
    await expectProblem(await platform.api("/v0/user/me", { pat: token }), 401, "USR-401-003");
    await expectProblem(await platform.api("/v0/user/me", { pat: token, headers: { "x-platform-orgid": env.orgid } }), 401, "USR-401-003");
  });

  it("refuses every JWT while auth_is_active is false (401 USR-401-003), and accepts them again when switched back", async () => {
    const env = await createEnvironment({ name: "Switchable", auth_providers: [providerBEntry()] });
    const jwt = await providerB.sign({ sub: "switch-user", aud: "app-b" });
    expect((await register(jwt, env.orgid)).status).toBe(201);

    const off = await patchEnvironment(env.id, { auth_is_active: false });
    expect(off.status).toBe(200);
    const offBody = await off.json();
    expect(offBody.auth).toMatchObject({ is_active: false, providers: ["provider_b"] });
    expect(offBody.auth.updated_at).toBeGreaterThanOrEqual(env.body.auth.updated_at);
    await eventually(async () => {
      await expectProblem(await me(jwt, env.orgid), 401, "USR-401-003");
    });

    expect((await patchEnvironment(env.id, { auth_is_active: true })).status).toBe(200);
    await eventually(async () => {
      expect((await me(jwt, env.orgid)).status).toBe(200);
    });

    // an environment created inactive refuses from the start
    const inactive = await createEnvironment({ name: "Inactive", auth_providers: [providerBEntry()], auth_is_active: false });
    expect(inactive.body.auth.is_active).toBe(false);
    await expectProblem(await register(jwt, inactive.orgid), 401, "USR-401-003");
  });

  it("follows a provider change made with PATCH", async () => {
    const env = await createEnvironment({ name: "Migrating", auth_providers: [providerBEntry()] });
    const jwtA = await platform.issuer.sign({ sub: "moving-user" });
    const jwtB = await providerB.sign({ sub: "moving-user", aud: "app-b" });
    await expectProblem(await me(jwtB, env.orgid), 404, "USR-404-001");
    await expectProblem(await me(jwtA, env.orgid), 401, "USR-401-001");

    const patched = await patchEnvironment(env.id, { name: "Migrated", label: "moved to provider_a", auth_providers: [providerAEntry()] });
    expect(patched.status).toBe(200);
    const body = await patched.json();
    expect(body).toMatchObject({ id: env.id, name: "Migrated", label: "moved to provider_a", auth: { providers: ["provider_a"] } });
    expect(body._links.update).toEqual({ href: `${platform.config.publicIdentityUrl}/v0/organisation/${ORG}/environments/${env.id}`, method: "PATCH" });
    await eventually(async () => {
      await expectProblem(await me(jwtA, env.orgid), 404, "USR-404-001");
      await expectProblem(await me(jwtB, env.orgid), 401, "USR-401-001");
    });

    // PATCH without auth fields leaves the providers alone
    const renamed = await (await patchEnvironment(env.id, { name: "Renamed" })).json();
    expect(renamed.auth).toMatchObject({ providers: ["provider_a"], updated_at: body.auth.updated_at });
    const read = await (await platform.identity(`/v0/organisation/${ORG}/environments/${env.id}`, { bearer: owner })).json();
    expect(read).toMatchObject({ name: "Renamed", auth: { provider_configs: [providerAEntry()] } });
  });

  it("accepts a siwe entry without keys, verified with the platform signing key", async () => {
    const env = await createEnvironment({ name: "Wallets", auth_providers: [{ name: "siwe", issuer: "https://siwe.envauth.test" }] });
    const token = await signingKey.sign({}, { issuer: "https://siwe.envauth.test", subject: "0x52908400098527886E0F7030069857D2E4169EE7", expiresInSeconds: 600 });
    await expectProblem(await me(token, env.orgid), 404, "USR-404-001");
    // a token signed with another key under that issuer is refused
    const other = await SigningKey.fromJwk({ ...(await exportJWK((await generateKeyPair("ES256", { extractable: true })).privateKey)), alg: "ES256", kid: "platform-1" });
    await expectProblem(await me(await other.sign({}, { issuer: "https://siwe.envauth.test", subject: "0xabc", expiresInSeconds: 600 }), env.orgid), 401, "USR-401-001");
  });

  it("answers USR-401-003 for unknown organisations and environments, and an environment without providers refuses JWTs", async () => {
    const jwt = await platform.issuer.sign();
    await expectProblem(await me(jwt, `${ORG}:env_missing`), 401, "USR-401-003");
    await expectProblem(await me(jwt, `org_missing:${ENV}`), 401, "USR-401-003");
    // the bootstrap environment exists but names no provider yet
    await expectProblem(await me(jwt, `${ORG}:${ENV}`), 401, "USR-401-001");
  });

  it("still answers 401 USR-401-002 to a malformed x-platform-orgid", async () => {
    const env = await createEnvironment({ name: "Strict", auth_providers: [providerBEntry()] });
    const jwt = await providerB.sign({ sub: "malformed", aud: "app-b" });
    for (const value of [`${env.orgid}:x`, `:${env.id}`, `${ORG}:`, env.id]) await expectProblem(await me(jwt, value), 401, "USR-401-002");
  });

  it("leaves the default environment (AUTH_PROVIDERS) unchanged", async () => {
    const { jwt, id } = await platform.createUser();
    const response = await me(jwt);
    expect(response.status).toBe(200);
    expect((await response.json()).id).toBe(id);
    await expectProblem(await me(await providerB.sign({ aud: "app-b" })), 401, "USR-401-001");
  });
});

describe("setting an environment's providers", () => {
  it("validates auth_providers with the rules of AUTH_PROVIDERS (422 items under body.auth_providers)", async () => {
    const cases: [unknown[], (string | number)[]][] = [
      [[{ name: "provider_c", issuer: "https://x.test", jwks_uri: "https://x.test/jwks" }], ["body", "auth_providers", 0, "name"]],
      [[{ name: "provider_a", issuer: "", jwks_uri: "https://x.test/jwks" }], ["body", "auth_providers", 0, "issuer"]],
      [[{ name: "provider_a", issuer: "https://x.test" }], ["body", "auth_providers", 0]],
      [[providerBEntry(), { name: "provider_a", issuer: "https://x.test", jwks_uri: "ftp://x.test/jwks" }], ["body", "auth_providers", 1, "jwks_uri"]],
      [[{ name: "provider_a", issuer: "https://x.test", public_key: "pem", mode: "access" }], ["body", "auth_providers", 0, "mode"]],
      [[providerBEntry(), { ...providerAEntry(), issuer: providerB.issuer }], ["body", "auth_providers", 1, "issuer"]],
    ];
    for (const [auth_providers, loc] of cases) {
      for (const response of [
        await platform.identity(`/v0/organisation/${ORG}/environments`, { method: "POST", bearer: owner, json: { name: "Bad", auth_providers } }),
        await patchEnvironment(ENV, { auth_providers }),
      ]) {
        expect(response.status, JSON.stringify(auth_providers)).toBe(422);
        const problem = await response.json();
        expect(problem.detail[0].loc, JSON.stringify(problem)).toEqual(loc);
      }
    }
    // nothing was changed by the refused PATCHes
    const read = await (await platform.identity(`/v0/organisation/${ORG}/environments/${ENV}`, { bearer: owner })).json();
    expect(read.auth.providers).toEqual([]);
  });

  it("lets owners and admins change an environment, not members (403 IDS-403-003); unknown environments are 404", async () => {
    expect((await platform.identity(`/v0/organisation/${ORG}/members`, { method: "POST", bearer: owner, json: { sub: "envauth-member", role: "member" } })).status).toBe(201);
    const member = await platform.dashboard.sign({ sub: "envauth-member" });
    const refused = await patchEnvironment(ENV, { auth_is_active: false }, member);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error_code).toBe("IDS-403-003");
    const missing = await patchEnvironment("env_missing", { name: "x" });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error_code).toBe("IDS-404-001");
    const stranger = await patchEnvironment(ENV, { name: "x" }, await platform.dashboard.sign({ sub: "stranger" }));
    expect(stranger.status).toBe(404);
  });

  it("documents PATCH and the auth fields in the identity host's /openapi.json", async () => {
    const document = await (await platform.identity("/openapi.json")).json();
    const path = document.paths["/v0/organisation/{org_id}/environments/{env_id}"];
    expect(path.patch.operationId).toBe("updateEnvironment");
    expect(path.patch.description).toContain("30 s");
    const create = document.paths["/v0/organisation/{org_id}/environments"].post;
    expect(JSON.stringify(create.requestBody)).toContain("auth_providers");
  });
});
