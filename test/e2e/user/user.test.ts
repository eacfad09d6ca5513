import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { predictSafeAddress } from "../../../subgraphs/users/safe/safe-address.ts";
import { saltNonceFor } from "../../../subgraphs/users/wallets/safe-deployment.ts";
import { randomAddress, startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { newAccount, registrationBody } from "../../support/registration.ts";
import { expectEachProblem, readOnlyPat, statusAndCode, type RouteCall } from "../../support/route-cases.ts";

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

describe("POST /v0/user/", () => {
  it("creates a pending user with a checksummed primary EOA and a Safe in processing", async () => {
    const jwt = await platform.issuer.sign({ sub: "alice" });
    const account = newAccount();
    const body_ = await registrationBody(jwt, { account });
    const response = await platform.api("/v0/user/", { method: "POST", jwt, json: { ...body_, primary_eoa_address: account.address.toLowerCase() } });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.id).toMatch(/^usr_[0-9a-z]{26}$/);
    expect(body).toMatchObject({
      auth_provider: "provider_a",
      auth_provider_id: "alice",
      status: "pending",
      primary_eoa_address: account.address,
      safe_creation_status: "processing",
    });
    expect(body._links.self.href).toBe(`${platform.config.publicBaseUrl}/v0/user/me`);
    expect(body).not.toHaveProperty("wallets");
  });

  it("answers 409 USR-409-001 to a second registration of the same subject and creates nothing", async () => {
    const { jwt } = await platform.createUser({ sub: "bob" });
    const response = await platform.api("/v0/user/", { method: "POST", jwt, json: await registrationBody(jwt) });
    expect(response.status).toBe(409);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    expect(await response.json()).toMatchObject({ status: 409, error_code: "USR-409-001", instance: "/v0/user/" });
    const wallets = await (await platform.api("/v0/wallets", { jwt })).json();
    expect(wallets.items.filter((w: { type: string }) => w.type === "EOA")).toHaveLength(1);
  });

  it("creates exactly one user when one subject registers concurrently", async () => {
    const jwt = await platform.issuer.sign({ sub: "carol" });
    const bodies = await Promise.all(Array.from({ length: 8 }, () => registrationBody(jwt)));
    const responses = await Promise.all(bodies.map((json) => platform.api("/v0/user/", { method: "POST", jwt, json })));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(7);
    const me = await (await platform.api("/v0/user/me?expand=wallets", { jwt })).json();
    expect(me.wallets.filter((w: { type: string }) => w.type === "EOA")).toHaveLength(1);
  });

  it("validates the body: 422 with FastAPI-style items", async () => {
    const jwt = await platform.issuer.sign();
    const response = await platform.api("/v0/user/", { method: "POST", jwt, json: { primary_eoa_address: "0x123", chain_id: "base" } });
    expect(response.status).toBe(422);
    const problem = await response.json();
    expect(problem.error_code).toBe("GEN-422-001");
    expect(problem.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ["body", "primary_eoa_address"], type: "string_pattern_mismatch", input: "0x123" }),
        expect.objectContaining({ loc: ["body", "chain_id"], type: "int_type", input: "base" }),
      ]),
    );
    const missing = await (await platform.api("/v0/user/", { method: "POST", jwt, json: {} })).json();
    expect(missing.detail).toEqual(
      expect.arrayContaining([{ type: "missing", loc: ["body", "chain_id"], msg: "Field required", input: {}, ctx: {} }]),
    );
  });

  it("refuses an unsupported chain and a mixed-case address with a wrong checksum", async () => {
    const jwt = await platform.issuer.sign();
    const chain = await platform.api("/v0/user/", { method: "POST", jwt, json: { primary_eoa_address: randomAddress(), chain_id: 999999 } });
    expect(chain.status).toBe(422);
    expect((await chain.json()).detail[0].loc).toEqual(["body", "chain_id"]);
    const checksum = await platform.api("/v0/user/", { method: "POST", jwt, json: { primary_eoa_address: "0x52908400098527886E0F7030069857D2E4169Ee7", chain_id: 8453 } });
    expect(checksum.status).toBe(422);
    expect((await checksum.json()).detail[0].loc).toEqual(["body", "primary_eoa_address"]);
  });

  it("needs a credential: none is 401 USR-401-001", async () => {
    const none = await platform.api("/v0/user/", { method: "POST", json: { primary_eoa_address: randomAddress(), chain_id: 8453 } });
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error_code: "USR-401-001", title: "User Authentication Failed" });
  });
});

describe("POST /v0/user/: proof of control of primary_eoa_address, optional and recorded (issue 25, item 1)", () => {
  const post = (jwt: string, json: Record<string, unknown>) => platform.api("/v0/user/", { method: "POST", jwt, json });
  /** the parts of a ProblemDetail that do not change from one request to the next */
  const stable = ({ trace_id: _t, ...problem }: Record<string, unknown>) => problem;
  const wallets = async (jwt: string) => (await (await platform.api("/v0/user/me?expand=wallets", { jwt })).json()).wallets as { type: string; address_verified: boolean }[];

  it("registers a spec client's documented body with a plain access token (spec 4.3): 201, its wallets recorded unproven", async () => {
    const jwt = await platform.issuer.sign({ sub: "spec-client-1" });
    const account = newAccount();
    const created = await post(jwt, { primary_eoa_address: account.address, chain_id: 8453 });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ auth_provider_id: "spec-client-1", primary_eoa_address: account.address, status: "pending", safe_creation_status: "processing" });
    const rows = await wallets(jwt);
    expect(rows.map((w) => [w.type, w.address_verified])).toEqual([
      ["EOA", false],
      ["Safe", false],
    ]);
  });

  it("records a proof given at registration (signature, or a JWT vouching for the address) on the wallets", async () => {
    const { jwt } = await platform.createUser();
    expect((await wallets(jwt)).every((w) => w.address_verified)).toBe(true);
    const listed = newAccount();
    const vouching = await platform.issuer.sign({ linked_accounts: [{ type: "wallet", address: listed.address.toLowerCase(), chain_type: "ethereum" }] });
    expect((await post(vouching, { primary_eoa_address: listed.address, chain_id: 8453 })).status).toBe(201);
    expect((await wallets(vouching)).every((w) => w.address_verified)).toBe(true);
    // a token listing some other wallet vouches for that one only: registered, unproven
    const unlisted = await platform.issuer.sign({ linked_accounts: [{ type: "wallet", address: newAccount().address }] });
    expect((await post(unlisted, { primary_eoa_address: newAccount().address, chain_id: 8453 })).status).toBe(201);
    expect((await wallets(unlisted)).some((w) => w.address_verified)).toBe(false);
  });

  it("refuses a proof offered that does not check out (403 USR-403-002, nothing created): a forged or replayed signature", async () => {
    const victim = newAccount();
    const attacker = await platform.issuer.sign({ sub: "attacker-1" });
    // the attacker's own key signing the message for the victim's address, and a replay of the victim's own signature
    const forged = await registrationBody(attacker, { account: newAccount() });
    const refused = await post(attacker, { ...forged, primary_eoa_address: victim.address });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error_code: "USR-403-002", title: "Address Control Not Proven" });
    const victimJwt = await platform.issuer.sign({ sub: "victim-1" });
    const victimProof = await registrationBody(victimJwt, { account: victim });
    expect((await post(attacker, victimProof)).status).toBe(403);
    expect((await platform.api("/v0/user/me", { jwt: attacker })).status).toBe(404);
    const created = await post(victimJwt, victimProof);
    expect(created.status).toBe(201);
    expect((await wallets(victimJwt)).every((w) => w.address_verified)).toBe(true);
  });

  it("answers the same whether or not another user registered the address", async () => {
    const taken = await platform.createUser();
    const free = newAccount();
    const onTaken = await post(await platform.issuer.sign(), { primary_eoa_address: taken.address, chain_id: 8453 });
    const onFree = await post(await platform.issuer.sign(), { primary_eoa_address: free.address, chain_id: 8453 });
    expect([onTaken.status, onFree.status]).toEqual([201, 201]);
    const attacker = await platform.issuer.sign({ sub: "attacker-2" });
    const badOnTaken = await (await post(attacker, { ...(await registrationBody(attacker)), primary_eoa_address: taken.address })).json();
    const badOnFree = await (await post(attacker, { ...(await registrationBody(attacker)), primary_eoa_address: free.address })).json();
    expect(stable(badOnTaken)).toEqual(stable(badOnFree));
  });

  it("refuses a stale proof and a signature without issued_at", async () => {
    const jwt = await platform.issuer.sign();
    const stale = await post(jwt, await registrationBody(jwt, { issued_at: Date.now() - 11 * 60_000 }));
    expect(stale.status).toBe(403);
    expect((await stale.json()).error_code).toBe("USR-403-002");
    const { issued_at: _i, ...noTime } = await registrationBody(jwt);
    const missing = await post(jwt, noTime);
    expect(missing.status).toBe(422);
    expect((await missing.json()).detail[0].loc).toEqual(["body", "issued_at"]);
  });

  it("documents the message, the optional proof and strict mode in /openapi.json", async () => {
    const document = await (await platform.api("/openapi.json")).json();
    const operation = document.paths["/v0/user/"].post;
    expect(operation.description).toContain("Register user\nEnvironment: ");
    expect(operation.description).toContain("REGISTRATION_PROOF");
    expect(operation.description).toContain("USR-403-002");
    expect(operation.description).toContain("USR-429-001");
    expect(operation.requestBody.content["application/json"].schema.required).toEqual(["primary_eoa_address", "chain_id"]);
    expect(Object.keys(operation.requestBody.content["application/json"].schema.properties)).toEqual(["primary_eoa_address", "chain_id", "issued_at", "signature"]);
    expect(operation.responses["429"]).toBeDefined();
  });
});

describe("POST /v0/user/ in strict mode (REGISTRATION_PROOF)", () => {
  let strict: TestPlatform;
  beforeAll(async () => {
    strict = await startTestPlatform({ REGISTRATION_PROOF: "required" });
  });
  afterAll(() => strict?.stop());

  it("refuses registration without proof (403 USR-403-002, nothing created) and registers with it", async () => {
    const jwt = await strict.issuer.sign();
    const refused = await strict.api("/v0/user/", { method: "POST", jwt, json: { primary_eoa_address: newAccount().address, chain_id: 8453 } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error_code: "USR-403-002", title: "Address Control Not Proven" });
    expect((await strict.api("/v0/user/me", { jwt })).status).toBe(404);
    expect((await strict.api("/v0/user/", { method: "POST", jwt, json: await registrationBody(jwt) })).status).toBe(201);
  });
});

describe("GET /v0/user/me", () => {
  it("answers 404 USR-404-001 for a valid JWT without a user", async () => {
    const jwt = await platform.issuer.sign({ sub: "nobody" });
    const response = await platform.api("/v0/user/me", { jwt });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error_code: "USR-404-001", type: `${platform.config.publicBaseUrl}/errors/usr-404-001` });
  });

  it("adds wallets and status_history only when expanded, comma-separated or repeated", async () => {
    const { jwt } = await platform.createUser();
    const plain = await (await platform.api("/v0/user/me", { jwt })).json();
    expect(plain).not.toHaveProperty("wallets");
    expect(plain).not.toHaveProperty("status_history");
    const both = await (await platform.api("/v0/user/me?expand=wallets,status_history", { jwt })).json();
    expect(both.wallets.map((w: { type: string }) => w.type).sort()).toEqual(["EOA", "Safe"]);
    expect(both.status_history).toEqual([expect.objectContaining({ from: null, to: "pending", cause: "registration" })]);
    const repeated = await (await platform.api("/v0/user/me?expand=wallets&expand=status_history", { jwt })).json();
    expect(repeated).toHaveProperty("wallets");
    expect(repeated).toHaveProperty("status_history");
    const bad = await platform.api("/v0/user/me?expand=cards", { jwt });
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail[0].loc[0]).toBe("query");
  });

  it("serialises timestamps as epoch ms by default and as ISO 8601 on request, recursively", async () => {
    const { jwt } = await platform.createUser();
    const ms = await (await platform.api("/v0/user/me?expand=status_history", { jwt })).json();
    expect(Number.isInteger(ms.created_at)).toBe(true);
    expect(Number.isInteger(ms.status_history[0].changed_at)).toBe(true);
    const iso = await (await platform.api("/v0/user/me?expand=status_history", { jwt, headers: { "X-Timestamp-Format": "iso8601" } })).json();
    expect(iso.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(iso.status_history[0].changed_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    for (const other of ["rfc2822", "ISO8601", "Iso8601"]) {
      const unknown = await platform.api("/v0/user/me", { jwt, headers: { "X-Timestamp-Format": other } });
      expect(unknown.status).toBe(200);
      expect(Number.isInteger((await unknown.json()).created_at)).toBe(true);
    }
  });
});

describe("the user's credentials: security", () => {
  it("answers 401 without a credential; a personal access token reads the user but registers none and manages no tokens (403 USR-403-001)", async () => {
    const { jwt } = await platform.createUser();
    const calls: RouteCall[] = [
      { method: "POST", path: "/v0/user/", json: { primary_eoa_address: randomAddress(), chain_id: 8453 } },
      { method: "POST", path: "/v0/user/me/personal-access-tokens", json: { name: "probe", scopes: ["read"] } },
      { path: "/v0/user/me/personal-access-tokens" },
      { method: "DELETE", path: "/v0/user/me/personal-access-tokens/pat_missing" },
    ];
    await expectEachProblem(platform, [{ path: "/v0/user/me" }, ...calls], {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, jwt);
    expect((await platform.api("/v0/user/me", { pat })).status).toBe(200);
    await expectEachProblem(platform, calls, { pat }, { status: 403, code: "USR-403-001" });
  });

  it("answers 404 PAT-404-001 to revoke another user's personal access token, which keeps working", async () => {
    const owner = await platform.createUser();
    const created = await (await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt: owner.jwt, json: { name: "mine", scopes: ["read"] } })).json();
    const other = await platform.createUser();
    expect(await statusAndCode(await platform.api(`/v0/user/me/personal-access-tokens/${created.id}`, { method: "DELETE", jwt: other.jwt }))).toEqual({ status: 404, code: "PAT-404-001" });
    expect((await platform.api("/v0/user/me", { pat: created.token })).status).toBe(200);
  });
});

describe("Safe deployment", () => {
  it("completes in the background: the user's safe_creation_status becomes completed with the Safe address stored", async () => {
    const { jwt } = await platform.createUser();
    let me: any;
    for (let i = 0; i < 50; i++) {
      me = await (await platform.api("/v0/user/me?expand=wallets", { jwt })).json();
      if (me.safe_creation_status === "completed") break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(me.safe_creation_status).toBe("completed");
    const safe = me.wallets.find((w: { type: string }) => w.type === "Safe");
    // the sandbox deploys at the counterfactual address Safe's proxy factory would use
    expect(safe.address).toBe(predictSafeAddress({ owners: [getAddress(me.primary_eoa_address)], threshold: 1, saltNonce: saltNonceFor(me.id, 8453), chainId: 8453 }));
    expect(safe.safe_creation_event_id).toMatch(/^sce_/);
  });

  it("fails the deployment of owners listed in SAFE_SANDBOX_FAILURES: safe_creation_status failed", async () => {
    const account = newAccount();
    const failing = await startTestPlatform({ SAFE_SANDBOX_FAILURES: account.address.toUpperCase().replace("0X", "0x") });
    try {
      const { jwt } = await failing.createUser({ account });
      let status = "processing";
      for (let i = 0; i < 50 && status === "processing"; i++) {
        status = (await (await failing.api("/v0/user/me", { jwt })).json()).safe_creation_status;
        if (status === "processing") await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe("failed");
      const other = await failing.createUser();
      for (let i = 0; i < 50 && status !== "completed"; i++) {
        status = (await (await failing.api("/v0/user/me", { jwt: other.jwt })).json()).safe_creation_status;
        if (status !== "completed") await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe("completed");
    } finally {
      await failing.stop();
    }
  });
});

describe("ENVIRONMENT_LIMITS (issue 7, item 4)", () => {
  it("answers 429 with Retry-After once the environment created users_per_hour users, and creates nothing, also under parallel registrations", async () => {
    const limited = await startTestPlatform({ ENVIRONMENT_LIMITS: JSON.stringify({ overrides: { default: { users_per_hour: 3 } } }) });
    try {
      await limited.createUser();
      const jwts = await Promise.all(Array.from({ length: 6 }, () => limited.issuer.sign()));
      const bodies = await Promise.all(jwts.map((jwt) => registrationBody(jwt)));
      const statuses = await Promise.all(jwts.map((jwt, i) => limited.api("/v0/user/", { method: "POST", jwt, json: bodies[i] }).then((r) => r.status)));
      expect(statuses.filter((s) => s === 201)).toHaveLength(2);
      expect(statuses.filter((s) => s === 429)).toHaveLength(4);

      const jwt = await limited.issuer.sign();
      const refused = await limited.api("/v0/user/", { method: "POST", jwt, json: await registrationBody(jwt) });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3500);
      expect(await refused.json()).toMatchObject({ error_code: "USR-429-001", title: "User Creation Limit Reached" });
      expect((await limited.api("/v0/user/me", { jwt })).status).toBe(404);
    } finally {
      await limited.stop();
    }
  });
});
