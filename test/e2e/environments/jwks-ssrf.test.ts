import { createServer, type Server } from "node:http";
import { generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNVERIFIED_JWT_DETAIL } from "../../../lib/auth/jwt-verifier.ts";
import { TestIssuer } from "../../support/jwt-issuer.ts";
import { freePort, startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 7, item 5: an organisation admin chooses an environment's jwks_uri and the gateway fetches
// it. It must not reach internal addresses, and a refusal must not say what the fetch reached.
const ORG = "org_ssrf";
const ENV = "env_ssrf";
const BOOTSTRAP = JSON.stringify({ organisation: { id: ORG, name: "SSRF Ltd" }, environment: { id: ENV, name: "Bootstrap" }, members: [{ sub: "ssrf-owner" }] });

async function expectValidationError(response: Response, loc: (string | number)[], msg: RegExp) {
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(422);
  expect(body.errors ?? body.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc, msg: expect.stringMatching(msg) })]));
}

describe("jwks_uri under the development switch (loopback http allowed, as in every test platform)", () => {
  let platform: TestPlatform;
  let provider: TestIssuer;
  let notKeys: Server;
  let notKeysUrl: string;
  let owner: string;

  beforeAll(async () => {
    provider = await TestIssuer.start();
    notKeys = createServer((_, res) => res.end("<html>an internal admin page</html>"));
    await new Promise<void>((resolve) => notKeys.listen(0, "127.0.0.1", resolve));
    notKeysUrl = `http://127.0.0.1:${(notKeys.address() as { port: number }).port}/admin`;
    platform = await startTestPlatform({ IDENTITY_BOOTSTRAP: BOOTSTRAP });
    owner = await platform.dashboard.sign({ sub: "ssrf-owner" });
  });
  afterAll(async () => {
    await platform?.stop();
    await provider?.stop();
    await new Promise<void>((resolve) => (notKeys ? notKeys.close(() => resolve()) : resolve()));
  });

  const entry = (jwks_uri: string) => ({ name: "provider_b", issuer: provider.issuer, jwks_uri });
  const create = (jwks_uri: string) =>
    platform.identity(`/v0/organisation/${ORG}/environments`, { method: "POST", bearer: owner, json: { name: "Env", auth_providers: [entry(jwks_uri)] } });

  it.each([
    ["cloud metadata", "http://169.254.169.254/latest/meta-data/iam", /loopback addresses only/],
    ["cloud metadata over https", "https://169.254.169.254/latest/meta-data/iam", /non-public address \(link-local\)/],
    ["a private network", "https://10.0.0.8/jwks.json", /non-public address \(private\)/],
    ["an IPv4-mapped private address", "https://[::ffff:10.0.0.8]/jwks.json", /non-public address \(private\)/],
    ["carrier-grade NAT", "https://100.64.0.1/jwks.json", /non-public address \(shared\)/],
    ["plain http to a public host", "http://issuer.example.com/.well-known/jwks.json", /loopback addresses only/],
  ])("refuses %s with 422 at POST and at PATCH, and changes nothing", async (_, jwksUri, msg) => {
    await expectValidationError(await create(jwksUri), ["body", "auth_providers", 0, "jwks_uri"], msg);
    const created = await (await create(provider.jwksUri)).json();
    const path = `/v0/organisation/${ORG}/environments/${created.id}`;
    await expectValidationError(await platform.identity(path, { method: "PATCH", bearer: owner, json: { auth_providers: [entry(jwksUri)] } }), ["body", "auth_providers", 0, "jwks_uri"], msg);
    const after = await (await platform.identity(path, { bearer: owner })).json();
    expect(JSON.stringify(after)).toContain(provider.jwksUri);
    expect(JSON.stringify(after)).not.toContain(jwksUri);
  });

  it("answers one and the same 401 whether the keys could not be fetched, the key is unknown or the signature is wrong", async () => {
    const closedPort = await freePort();
    const environments: Record<string, string> = {};
    for (const [name, jwksUri] of [["real", provider.jwksUri], ["closed-port", `http://127.0.0.1:${closedPort}/jwks.json`], ["not-keys", notKeysUrl]]) {
      const response = await create(jwksUri!);
      expect(response.status).toBe(201);
      environments[name!] = `${ORG}:${(await response.json()).id}`;
    }
    const me = async (jwt: string, orgid: string) => {
      const response = await platform.api("/v0/user/me", { jwt, headers: { "x-platform-orgid": orgid } });
      const { trace_id: _trace, ...problem } = await response.json();
      return { status: response.status, problem };
    };
    const valid = await provider.sign();
    // the setup works: a valid token of the real provider gets past authentication (no user yet)
    expect((await me(valid, environments.real!)).status).toBe(404);

    const { privateKey: stranger } = await generateKeyPair("ES256");
    const answers = [
      await me(valid, environments["closed-port"]!), // the fetch failed (connection refused)
      await me(valid, environments["not-keys"]!), // the fetch reached something that is not a JWKS
      await me(await provider.sign({}, { key: stranger }), environments.real!), // wrong signature, known kid
      await me(await provider.sign({}, { key: stranger, kid: "unknown" }), environments.real!), // unknown key
    ];
    expect(answers[0]).toMatchObject({ status: 401, problem: { error_code: "USR-401-001", detail: UNVERIFIED_JWT_DETAIL } });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
  });
});

describe("jwks_uri without the development switch (production rules)", () => {
  let platform: TestPlatform;
  let dashboard: TestIssuer;
  let users: TestIssuer;
  let owner: string;

  beforeAll(async () => {
    [dashboard, users] = await Promise.all([TestIssuer.start(), TestIssuer.start()]);
    // pinned keys: nothing here may fetch over http on loopback
    platform = await startTestPlatform({
      JWKS_ALLOW_LOOPBACK_HTTP: "false",
      AUTH_PROVIDERS: JSON.stringify([{ name: "provider_a", issuer: users.issuer, public_key: users.publicJwk }]),
      DASHBOARD_AUTH: JSON.stringify([{ name: "dashboard", issuer: dashboard.issuer, public_key: dashboard.publicJwk }]),
      IDENTITY_BOOTSTRAP: BOOTSTRAP,
    });
    owner = await dashboard.sign({ sub: "ssrf-owner" });
  });
  afterAll(async () => {
    await platform?.stop();
    await Promise.all([dashboard?.stop(), users?.stop()]);
  });

  it.each([
    ["the test issuer over http on loopback", () => users.jwksUri, /expected an https URL/],
    ["loopback over https", () => "https://127.0.0.1:8443/jwks.json", /non-public address \(loopback\)/],
    ["IPv6 loopback", () => "https://[::1]/jwks.json", /non-public address \(loopback\)/],
    ["a name that is loopback (localhost)", () => "https://localhost/jwks.json", /non-public address \(loopback\)/],
    ["cloud metadata", () => "https://169.254.169.254/latest/meta-data", /non-public address \(link-local\)/],
  ])("refuses %s with 422", async (_, jwksUri, msg) => {
    const response = await platform.identity(`/v0/organisation/${ORG}/environments`, {
      method: "POST",
      bearer: owner,
      json: { name: "Env", auth_providers: [{ name: "provider_a", issuer: users.issuer, jwks_uri: jwksUri() }] },
    });
    await expectValidationError(response, ["body", "auth_providers", 0, "jwks_uri"], msg);
  });
});
