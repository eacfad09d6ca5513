import "reflect-metadata";
import { randomUUID } from "node:crypto";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { getAddress, hashMessage, hashTypedData, keccak256, stringToHex, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UsersDb } from "../../../subgraphs/users/db.ts";
import { applyKycProviderEvent } from "../../../subgraphs/users/kyc/kyc-provider-event.ts";
import { walletRegistrationMessage } from "../../../subgraphs/users/wallets/register-wallet.ts";
import { DEVNET_CHAIN_ID, startDevnet, startFailingRpc, startSwitchableRpc, type Devnet } from "../../support/devnet.ts";
import { freePort, startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { registrationBody } from "../../support/registration.ts";
import { deploySafeLikeAccount, signAsSafeOwner } from "../../support/safe-account.ts";

// POST /v0/idsvc/token/pint and the PINT JWT (spec 4.6, 5.2.6, 7.3, 7.4): real mandates signed
// with viem local accounts, Safe mandates checked on an in-process chain through CHAIN_RPC_URLS.

const ORG = "org_pint";
const ENV = "env_pint";
const IDENTIFIER = "com.example.wallet-app";
const AUDIENCE = `${ORG}:${IDENTIFIER}`; // audiences are namespaced per organisation
const BASE = 8453;
const DEVNET = DEVNET_CHAIN_ID; // 900: tevm behind a loopback JSON-RPC proxy that can be taken down
const DEAD_CHAIN = 901; // an RPC URL where nothing listens
const FAILING_CHAIN = 903; // an RPC that answers eth_chainId, then HTTP 503

/** The documented EIP-712 domain (with this deployment's salt) and types, written out as a third party would. */
const domain = (chainId: number, salt: Hex = platform.config.pintDomainSalt) => ({ name: "PINT", version: "1", chainId, salt }) as const;
const types = {
  Mandate: [
    { name: "wallet", type: "address" },
    { name: "signer", type: "address" },
    { name: "audience", type: "string" },
    { name: "scopes", type: "string[]" },
    { name: "nonce", type: "uint256" },
    { name: "expiresAt", type: "uint64" },
  ],
} as const;

interface MandateFields {
  wallet: Address;
  signer: Address;
  audience: string;
  scopes: string[];
  nonce: bigint;
  expiresAt: bigint;
}

let devnet: Devnet;
let rpc: Awaited<ReturnType<typeof startSwitchableRpc>>;
let failingRpc: Awaited<ReturnType<typeof startFailingRpc>>;
let platform: TestPlatform;
let owner: string; // dashboard session of the bootstrap organisation's owner
let docs: string;
let nonces = BigInt(Date.now()) * 1000n;

interface KycUser {
  id: string;
  jwt: string;
  account: PrivateKeyAccount;
}
let alice: KycUser; // EOA wallet on Base, KYC approved
let bob: KycUser; // EOA wallet on Base, KYC pending

beforeAll(async () => {
  devnet = await startDevnet();
  rpc = await startSwitchableRpc(devnet.url);
  failingRpc = await startFailingRpc(FAILING_CHAIN);
  platform = await startTestPlatform({
    IDENTITY_BOOTSTRAP: JSON.stringify({ organisation: { id: ORG, name: "Pint Ltd" }, environment: { id: ENV, name: "Dev" }, members: [{ sub: "pint-owner" }] }),
    CHAIN_RPC_URLS: JSON.stringify({ [DEVNET]: rpc.url, [DEAD_CHAIN]: `http://127.0.0.1:${await freePort()}`, [FAILING_CHAIN]: failingRpc.url }),
  });
  docs = platform.config.docsUrl;
  owner = await platform.dashboard.sign({ sub: "pint-owner" });
  const registered = await platform.identity(`/v0/organisation/${ORG}/audiences`, { method: "POST", bearer: owner, json: { identifier: IDENTIFIER, name: "Example wallet app" } });
  expect(registered.status).toBe(201);
  expect(await registered.json()).toMatchObject({ identifier: IDENTIFIER, audience: AUDIENCE });
  alice = await kycUser(privateKeyToAccount(generatePrivateKey()), BASE, true);
  bob = await kycUser(privateKeyToAccount(generatePrivateKey()), BASE, false);
});
afterAll(async () => {
  await platform?.stop();
  await rpc?.stop();
  await failingRpc?.stop();
  await devnet?.stop();
});

function usersDb(): UsersDb {
  return (platform.subgraphs.users as unknown as { services: { db: UsersDb } }).services.db;
}

/** A user whose primary EOA is `account`; with `approved`, KYC goes through the real flow and the provider's GREEN review. */
async function kycUser(account: PrivateKeyAccount, chainId: number, approved: boolean): Promise<KycUser> {
  const { id, jwt } = await platform.createUser({ account, chain_id: chainId });
  if (approved) {
    const token = await platform.api("/v0/kyc/access-token", { method: "POST", jwt });
    expect(token.status).toBe(200);
    const { applicant_id } = await token.json();
    expect((await platform.api("/v0/kyc/submissions", { method: "POST", jwt })).status).toBe(202);
    const outcome = await applyKycProviderEvent(usersDb(), { applicant_id, event_id: `evt-${randomUUID()}`, trigger: "kyc_approved" });
    expect(outcome).toMatchObject({ outcome: "applied", to: "approved" });
  }
  return { id, jwt, account };
}

async function mintKey(scopes = ["idsvc.token_exchange"], org = ORG, env = ENV, bearer = owner): Promise<string> {
  const response = await platform.identity(`/v0/organisation/${org}/keys`, { method: "POST", bearer, json: { name: scopes.join("+"), env_id: env, scopes } });
  expect(response.status).toBe(201);
  return (await response.json()).key;
}

function mandate(account: PrivateKeyAccount, overrides: Partial<MandateFields> = {}): MandateFields {
  return {
    wallet: account.address,
    signer: account.address,
    audience: AUDIENCE,
    scopes: ["profile.read", "kyc.read"],
    nonce: ++nonces,
    expiresAt: BigInt(Math.floor(Date.now() / 1000) + 3600),
    ...overrides,
  };
}

function sign(account: PrivateKeyAccount, chainId: number, fields: MandateFields): Promise<Hex> {
  return account.signTypedData({ domain: domain(chainId), types, primaryType: "Mandate", message: fields });
}

/** A Safe's mandate: `signer` signs the Safe's SafeMessage of the mandate digest. */
function signForSafe(signer: PrivateKeyAccount, chainId: number, fields: MandateFields): Promise<Hex> {
  const digest = hashTypedData({ domain: domain(chainId), types, primaryType: "Mandate", message: fields });
  return signAsSafeOwner(signer, fields.wallet, chainId, digest);
}

function body(chainId: number, fields: MandateFields, signature: Hex) {
  return { chain_id: chainId, mandate: { ...fields, nonce: fields.nonce.toString(), expiresAt: Number(fields.expiresAt) }, signature };
}

function exchange(key: string, json: unknown) {
  return platform.identity("/v0/idsvc/token/pint", { method: "POST", bearer: key, json });
}

async function signedExchange(key: string, account: PrivateKeyAccount, fields: MandateFields, chainId = BASE) {
  return exchange(key, body(chainId, fields, await sign(account, chainId, fields)));
}

const TYPE_NAMES: Record<string, string> = {
  "PINT-400-001": "invalid_pint_payload",
  "PINT-400-002": "invalid_audience",
  "PINT-401-001": "invalid_signature",
  "PINT-401-002": "invalid_signature_eip1271",
  "PINT-401-003": "invalid_pint_token",
  "PINT-401-006": "pint_token_revoked",
  "PINT-403-001": "scope_not_permitted",
  "PINT-403-002": "kyc_not_verified",
  "PINT-404-001": "pint_not_found",
  "PINT-409-001": "nonce_already_used",
  "PINT-409-002": "pint_revoked",
  "PINT-410-001": "pint_expired",
  "PINT-424-001": "eip1271_unavailable",
  "PINT-429-001": "rate_limited",
  "IDS-401-001": "invalid_api_key",
  "IDS-403-001": "insufficient_scope",
  "IDS-403-003": "insufficient_role",
  "IDS-404-001": "not_found",
  "IDS-409-001": "conflict",
};

/** Status, code, `type` ({docs_url}/errors/<type name>) and `documentation` ({docs_url}/errors/<code>) together. */
async function expectProblem(response: Response, status: number, code: string): Promise<any> {
  const problem = await response.json();
  expect({ status: response.status, code: problem.error_code, type: problem.type, documentation: problem.documentation }).toEqual({
    status,
    code,
    type: `${docs}/errors/${TYPE_NAMES[code]}`,
    documentation: `${docs}/errors/${code}`,
  });
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  expect(problem.status).toBe(status);
  return problem;
}

async function exchanged(response: Response): Promise<{ token: string; pint: any; expires_at: number; _links: any }> {
  const answer = await response.json();
  expect(response.status, JSON.stringify(answer)).toBe(201);
  return answer;
}

function withPint(path: string, token: string) {
  return platform.identity(path, { headers: { "x-platform-pint-token": token } });
}

describe("POST /v0/idsvc/token/pint with an EOA wallet", () => {
  it("exchanges a signed mandate for a JWT verifiable with the identity host's JWKS", async () => {
    const fields = mandate(alice.account, { expiresAt: BigInt(Math.floor(Date.now() / 1000) + 7200) });
    const answer = await exchanged(await signedExchange(await mintKey(), alice.account, fields));
    expect(answer.pint).toMatchObject({
      id: expect.stringMatching(/^pint_[0-9a-z]{26}$/),
      wallet: alice.account.address,
      chain_id: BASE,
      signer: alice.account.address,
      signer_role: "owner",
      audience: AUDIENCE,
      scopes: ["profile.read", "kyc.read"],
      nonce: fields.nonce.toString(),
      expires_at: Number(fields.expiresAt) * 1000,
      user_id: alice.id,
      organisation_id: ORG,
      revoked_at: null,
      revoked_by: null,
      status: "active",
    });
    expect(answer.pint.digest).toBe(hashTypedData({ domain: domain(BASE), types, primaryType: "Mandate", message: fields }));
    expect(answer._links.user.href).toBe(`${platform.config.publicIdentityUrl}/v0/users/${alice.id}`);

    const jwksResponse = await platform.identity("/.well-known/jwks.json");
    expect(jwksResponse.status).toBe(200);
    const jwks = await jwksResponse.json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty("d");
    const { payload, protectedHeader } = await jwtVerify(answer.token, createRemoteJWKSet(new URL(`${platform.urls.identity}/.well-known/jwks.json`)), {
      issuer: platform.config.publicIdentityUrl,
      audience: AUDIENCE,
    });
    expect(protectedHeader.kid).toBe(jwks.keys[0].kid);
    expect(payload).toMatchObject({
      sub: alice.id,
      aud: AUDIENCE,
      jti: answer.pint.id,
      scope: "profile.read kyc.read",
      scopes: ["profile.read", "kyc.read"],
      wallet: alice.account.address,
      chain_id: BASE,
      org_id: ORG,
      token_use: "pint",
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(answer.expires_at).toBe(payload.exp! * 1000);
  });

  it("speaks only for a user who proved the wallet's address: a squatter's unproven registration gets no PINT and blocks no one (issue 25)", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    // the squatter registers the owner's address with the documented body alone (spec 4.3): recorded unproven
    const squatterJwt = await platform.issuer.sign();
    expect((await platform.api("/v0/user/", { method: "POST", jwt: squatterJwt, json: { primary_eoa_address: owner.address, chain_id: BASE } })).status).toBe(201);
    const key = await mintKey();
    // the owner signs a mandate: nobody who proved the address holds it yet
    const unproven = await expectProblem(await signedExchange(key, owner, mandate(owner)), 403, "PINT-403-001");
    expect(unproven.detail).toContain("/address-proof");
    // the owner registers with proof; the mandate is theirs, whoever else named the address
    const real = await kycUser(owner, BASE, true);
    const answer = await exchanged(await signedExchange(key, owner, mandate(owner)));
    expect(answer.pint.user_id).toBe(real.id);
  });

  it("caps the JWT at the mandate's expiresAt, and takes nonce and expiresAt as decimal strings", async () => {
    const fields = mandate(alice.account, { expiresAt: BigInt(Math.floor(Date.now() / 1000) + 120) });
    const signed = body(BASE, fields, await sign(alice.account, BASE, fields));
    const answer = await exchanged(await exchange(await mintKey(), { ...signed, mandate: { ...signed.mandate, expiresAt: fields.expiresAt.toString() } }));
    expect(decodeJwt(answer.token).exp).toBe(Number(fields.expiresAt));
  });

  it("needs a server key with idsvc.token_exchange: 401 IDS-401-001 without, 403 IDS-403-001 with other scopes", async () => {
    const fields = mandate(alice.account);
    const json = body(BASE, fields, await sign(alice.account, BASE, fields));
    await expectProblem(await platform.identity("/v0/idsvc/token/pint", { method: "POST", json }), 401, "IDS-401-001");
    await expectProblem(await exchange(await mintKey(["idsvc.lookup"]), json), 403, "IDS-403-001");
    await expectProblem(await exchange(await mintKey(["rpc.invoke"]), json), 403, "IDS-403-001");
    await expectProblem(await exchange(owner, json), 401, "IDS-401-001");
  });

  it.each([
    ["no body at all", undefined, /body must be a JSON object/],
    ["an array", [], /body must be a JSON object/],
    ["missing fields", { chain_id: BASE }, /mandate: missing; .*signature: missing|signature: missing.*mandate: missing/],
    ["a mandate missing fields", { chain_id: BASE, signature: `0x${"11".repeat(65)}`, mandate: { wallet: "0x52908400098527886E0F7030069857D2E4169EE7" } }, /mandate.signer: missing/],
  ])("answers 400 PINT-400-001 for %s", async (_name, json, detail) => {
    const response = await platform.identity("/v0/idsvc/token/pint", {
      method: "POST",
      bearer: await mintKey(),
      ...(json !== undefined ? { json } : { headers: { "content-type": "application/json" }, body: "null" }),
    });
    const problem = await expectProblem(response, 400, "PINT-400-001");
    expect(problem.detail).toMatch(detail);
  });

  it("answers 400 PINT-400-001 naming each malformed field of a signed mandate", async () => {
    const key = await mintKey();
    const fields = mandate(alice.account);
    const good = body(BASE, fields, await sign(alice.account, BASE, fields));
    const cases: [unknown, RegExp][] = [
      [{ ...good, chain_id: "8453" }, /chain_id: expected a positive integer/],
      [{ ...good, chain_id: 424242 }, /chain_id: 424242 is not a supported chain/],
      [{ ...good, signature: "0x1234" }, /signature: expected 0x-hex bytes/],
      [{ ...good, extra: true }, /extra: unknown field/],
      [{ ...good, mandate: { ...good.mandate, wallet: "0xnot-an-address" } }, /mandate.wallet/],
      [{ ...good, mandate: { ...good.mandate, scopes: ["profile.read", "admin.everything"] } }, /unknown scopes "admin.everything"/],
      [{ ...good, mandate: { ...good.mandate, scopes: [] } }, /mandate.scopes: expected 1 to 16 scopes/],
      [{ ...good, mandate: { ...good.mandate, scopes: ["kyc.read", "kyc.read"] } }, /duplicate scopes/],
      [{ ...good, mandate: { ...good.mandate, nonce: -1 } }, /mandate.nonce/],
      [{ ...good, mandate: { ...good.mandate, expiresAt: Date.now() + 3_600_000 } }, /mandate.expiresAt: at most 90 days ahead/],
      [{ ...good, mandate: { ...good.mandate, audience: "x" } }, /mandate.audience/],
      [{ ...good, mandate: { ...good.mandate, chainId: BASE } }, /mandate.chainId: unknown field/],
    ];
    for (const [json, detail] of cases) {
      const problem = await expectProblem(await exchange(key, json), 400, "PINT-400-001");
      expect(problem.detail).toMatch(detail);
    }
  });

  it("answers 410 PINT-410-001 for an expired mandate, even with a bad signature", async () => {
    const fields = mandate(alice.account, { expiresAt: BigInt(Math.floor(Date.now() / 1000) - 1) });
    await expectProblem(await signedExchange(await mintKey(), alice.account, fields), 410, "PINT-410-001");
    const stranger = privateKeyToAccount(generatePrivateKey());
    await expectProblem(await exchange(await mintKey(), body(BASE, fields, await sign(stranger, BASE, fields))), 410, "PINT-410-001");
  });

  it("answers 400 PINT-400-002 for an audience not registered by the key's organisation", async () => {
    await expectProblem(await signedExchange(await mintKey(), alice.account, mandate(alice.account, { audience: "com.unknown.app" })), 400, "PINT-400-002");

    const founder = await platform.dashboard.sign({ sub: "other-founder" });
    const org = (await (await platform.identity("/v0/organisations", { method: "POST", bearer: founder, json: { name: "Other" } })).json()).organisation.id;
    const env = (await (await platform.identity(`/v0/organisation/${org}/environments`, { method: "POST", bearer: founder, json: { name: "Prod" } })).json()).id;
    const otherKey = await mintKey(["idsvc.token_exchange"], org, env, founder);
    // another organisation's identifier: only its owner exchanges mandates for it
    await expectProblem(await signedExchange(otherKey, alice.account, mandate(alice.account)), 400, "PINT-400-002");
    // its own identifier, but alice is not a user its keys see
    expect((await platform.identity(`/v0/organisation/${org}/audiences`, { method: "POST", bearer: founder, json: { identifier: "com.other.app" } })).status).toBe(201);
    const foreign = await expectProblem(await signedExchange(otherKey, alice.account, mandate(alice.account, { audience: `${org}:com.other.app` })), 403, "PINT-403-001");
    expect(foreign.detail).toMatch(/not a wallet of a platform user this organisation's keys can see/);
    // the bare identifier names no audience: mandates name <org_id>:<identifier>
    await expectProblem(await signedExchange(await mintKey(), alice.account, mandate(alice.account, { audience: IDENTIFIER })), 400, "PINT-400-002");
  });

  it("namespaces audiences per organisation: registering another organisation's identifier captures none of its mandates", async () => {
    const squatter = await platform.dashboard.sign({ sub: "audience-squatter" });
    const org = (await (await platform.identity("/v0/organisations", { method: "POST", bearer: squatter, json: { name: "Squatter" } })).json()).organisation.id;
    const env = (await (await platform.identity(`/v0/organisation/${org}/environments`, { method: "POST", bearer: squatter, json: { name: "Prod" } })).json()).id;
    const copied = await platform.identity(`/v0/organisation/${org}/audiences`, { method: "POST", bearer: squatter, json: { identifier: IDENTIFIER } });
    expect(copied.status).toBe(201);
    expect((await copied.json()).audience).toBe(`${org}:${IDENTIFIER}`);
    // a mandate for the real owner's audience is still only the real owner's to exchange
    await expectProblem(await signedExchange(await mintKey(["idsvc.token_exchange"], org, env, squatter), alice.account, mandate(alice.account)), 400, "PINT-400-002");
    await exchanged(await signedExchange(await mintKey(), alice.account, mandate(alice.account)));
    // within one organisation an identifier is registered once
    expect((await platform.identity(`/v0/organisation/${ORG}/audiences`, { method: "POST", bearer: owner, json: { identifier: IDENTIFIER } })).status).toBe(409);
  });

  it("answers 401 PINT-401-001 for a signature by another key and for a tampered mandate", async () => {
    const key = await mintKey();
    const fields = mandate(alice.account);
    const stranger = privateKeyToAccount(generatePrivateKey());
    const problem = await expectProblem(await exchange(key, body(BASE, fields, await sign(stranger, BASE, fields))), 401, "PINT-401-001");
    expect(problem.detail).toContain(stranger.address);
    const signature = await sign(alice.account, BASE, fields);
    await expectProblem(await exchange(key, body(BASE, { ...fields, scopes: ["profile.read", "kyc.read", "identity.read"] }, signature)), 401, "PINT-401-001");
    await expectProblem(await exchange(key, body(DEVNET, fields, signature)), 401, "PINT-401-001"); // signed for another chain
    // the untampered mandate still exchanges: failures consume no nonce
    await exchanged(await exchange(key, body(BASE, fields, signature)));
  });

  it("answers 401 PINT-401-001 for a mandate signed for another deployment (another EIP-712 salt)", async () => {
    const fields = mandate(alice.account);
    const elsewhere = keccak256(stringToHex("https://identity.another-deployment.example"));
    const signature = await alice.account.signTypedData({ domain: domain(BASE, elsewhere), types, primaryType: "Mandate", message: fields });
    await expectProblem(await exchange(await mintKey(), body(BASE, fields, signature)), 401, "PINT-401-001");
    // ... and one signed in a domain that names no deployment at all (the domain before salts)
    const saltless = await alice.account.signTypedData({ domain: { name: "PINT", version: "1", chainId: BASE }, types, primaryType: "Mandate", message: fields });
    await expectProblem(await exchange(await mintKey(), body(BASE, fields, saltless)), 401, "PINT-401-001");
    // the very same mandate signed in this deployment's domain exchanges
    await exchanged(await signedExchange(await mintKey(), alice.account, fields));
  });

  it("answers 400 PINT-400-001 in the PINT shape for a body the HTTP layer refuses: not JSON, wrong content type or charset, a duplicate key, too deep, empty, too large", async () => {
    const key = await mintKey();
    const post = (init: RequestInit) => platform.identity("/v0/idsvc/token/pint", { method: "POST", bearer: key, ...init });
    const fields = mandate(alice.account);
    const valid = JSON.stringify(body(BASE, fields, await sign(alice.account, BASE, fields)));
    const cases: [string, RequestInit, RegExp][] = [
      ["not JSON", { headers: { "content-type": "application/json" }, body: "{chain_id: 8453," }, /not valid JSON/],
      ["a forbidden __proto__ key", { headers: { "content-type": "application/json" }, body: '{"__proto__": {"x": 1}}' }, /not valid JSON/],
      ["text/plain", { headers: { "content-type": "text/plain" }, body: valid }, /application\/json/],
      ["another charset", { headers: { "content-type": "application/json; charset=utf-16" }, body: valid }, /in UTF-8/],
      ["a duplicate key", { headers: { "content-type": "application/json" }, body: valid.replace(/}$/, ',"chain_id":1}') }, /Duplicate key 'chain_id'/],
      ["a body nested 5,000 deep", { headers: { "content-type": "application/json" }, body: valid.replace(/}$/, `,"x":${"[".repeat(5_000)}${"]".repeat(5_000)}}`) }, /levels deep/],
      ["form-encoded", { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "chain_id=8453" }, /application\/json/],
      ["an empty JSON body", { headers: { "content-type": "application/json" }, body: "" }, /empty/],
      ["over 16 KiB", { headers: { "content-type": "application/json" }, body: JSON.stringify({ ...JSON.parse(valid), padding: "x".repeat(20_000) }) }, /larger/],
    ];
    for (const [name, init, detail] of cases) {
      const problem = await expectProblem(await post(init), 400, "PINT-400-001");
      expect(problem.detail, name).toMatch(detail);
      expect(problem.title).toBe("Invalid PINT Payload");
    }
    // nothing was consumed: the mandate still exchanges
    await exchanged(await post({ headers: { "content-type": "application/json" }, body: valid }));
  });

  it("answers 403 PINT-403-001 for a wallet no platform user registered", async () => {
    const nobody = privateKeyToAccount(generatePrivateKey());
    await expectProblem(await signedExchange(await mintKey(), nobody, mandate(nobody)), 403, "PINT-403-001");
  });

  it("answers 403 PINT-403-002 while the user's KYC is not approved", async () => {
    const problem = await expectProblem(await signedExchange(await mintKey(), bob.account, mandate(bob.account)), 403, "PINT-403-002");
    expect(problem.detail).toMatch(/pending/);
  });

  it("answers 409 PINT-409-001 for a nonce already used by this wallet, with the same or another mandate", async () => {
    const key = await mintKey();
    const fields = mandate(alice.account);
    const json = body(BASE, fields, await sign(alice.account, BASE, fields));
    await exchanged(await exchange(key, json));
    await expectProblem(await exchange(key, json), 409, "PINT-409-001");
    await expectProblem(await signedExchange(key, alice.account, { ...fields, scopes: ["profile.read"] }), 409, "PINT-409-001");
    // the same nonce on another wallet is that wallet's own
    const carol = await kycUser(privateKeyToAccount(generatePrivateKey()), BASE, true);
    await exchanged(await signedExchange(key, carol.account, mandate(carol.account, { nonce: fields.nonce })));
  });

  it("of 20 concurrent exchanges of one nonce, exactly one succeeds and the others get 409 PINT-409-001", async () => {
    const key = await mintKey();
    const nonce = ++nonces;
    const bodies = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const fields = mandate(alice.account, { nonce, expiresAt: BigInt(Math.floor(Date.now() / 1000) + 600 + i) });
        return body(BASE, fields, await sign(alice.account, BASE, fields));
      }),
    );
    const responses = await Promise.all(bodies.map((json) => exchange(key, json)));
    const answers = await Promise.all(responses.map((r) => r.json()));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.error_code === "PINT-409-001")).toHaveLength(19);
    const rows = await platform.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM identity.pint_mandates WHERE wallet = $1 AND nonce = $2`, [alice.account.address, nonce.toString()]);
    expect(rows[0]!.n).toBe(1);
  });

  it("answers 429 PINT-429-001 with Retry-After past the key's pint_exchange budget (30 a minute), counting failed attempts", async () => {
    const key = await mintKey();
    for (let i = 0; i < 30; i++) expect((await exchange(key, {})).status).toBe(400);
    const limited = await exchange(key, {});
    const problem = await expectProblem(limited, 429, "PINT-429-001");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(problem.title).toBe("Rate Limited");
    // another key has its own budget
    await exchanged(await signedExchange(await mintKey(), alice.account, mandate(alice.account)));
  });
});

describe("the PINT JWT in x-platform-pint-token", () => {
  it("looks up the mandate's own user with the fields its scopes grant, and nobody else", async () => {
    const answer = await exchanged(await signedExchange(await mintKey(), alice.account, mandate(alice.account)));
    const lookup = await withPint(`/v0/users/${alice.id}`, answer.token);
    expect(lookup.status).toBe(200);
    const found = await lookup.json();
    expect(found).toMatchObject({ sri: alice.id, user: { id: alice.id, kyc: { status: "approved", verified: true } } });
    expect(Object.keys(found.user).sort()).toEqual(["created_at", "id", "kyc"]);

    await expectProblem(await withPint(`/v0/users/${bob.id}`, answer.token), 404, "IDS-404-001");

    const identity = await exchanged(await signedExchange(await mintKey(), alice.account, mandate(alice.account, { scopes: ["profile.read", "identity.read"] })));
    const details = await (await withPint(`/v0/users/${alice.id}`, identity.token)).json();
    expect(details.user.identity_record).toMatchObject({ primary_eoa_address: alice.account.address, primary_chain_id: BASE });
    expect(details.user).not.toHaveProperty("kyc");

    const kycOnly = await exchanged(await signedExchange(await mintKey(), alice.account, mandate(alice.account, { scopes: ["kyc.read"] })));
    await expectProblem(await withPint(`/v0/users/${alice.id}`, kycOnly.token), 403, "IDS-403-001");
  });

  it("wins over Authorization, introspects its mandate, and refuses tampered tokens with 401 PINT-401-003", async () => {
    const answer = await exchanged(await signedExchange(await mintKey(), alice.account, mandate(alice.account)));
    const both = await platform.identity(`/v0/users/${alice.id}`, { bearer: await mintKey(["idsvc.lookup"]), headers: { "x-platform-pint-token": answer.token } });
    expect(Object.keys((await both.json()).user).sort()).toEqual(["created_at", "id", "kyc"]);

    const introspected = await withPint("/v0/idsvc/token/pint", answer.token);
    expect(introspected.status).toBe(200);
    expect(await introspected.json()).toMatchObject({ id: answer.pint.id, status: "active", user_id: alice.id });

    const [header, , signature] = answer.token.split(".");
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(answer.token), scopes: ["payments.write"] })).toString("base64url");
    await expectProblem(await withPint(`/v0/users/${alice.id}`, `${header}.${forged}.${signature}`), 401, "PINT-401-003");
    await expectProblem(await withPint(`/v0/users/${alice.id}`, "not-a-jwt"), 401, "PINT-401-003");
  });

  it("refuses a PINT JWT on the platform host: it is not a platform credential", async () => {
    const answer = await exchanged(await signedExchange(await mintKey(), alice.account, mandate(alice.account)));
    const response = await platform.api("/v0/user/me", { headers: { "x-platform-pint-token": answer.token } });
    expect(response.status).toBe(401);
  });
});

describe("PINT balances in user lookup (idsvc.get_pints)", () => {
  it("counts the active mandates the key's organisation holds for the user; a revoked one leaves the balance", async () => {
    const balanceKey = await mintKey(["idsvc.lookup", "idsvc.get_pints"]);
    const balance = async () => (await (await platform.identity(`/v0/users/${alice.id}`, { bearer: balanceKey })).json()).user.pints;
    const before = (await balance()).active_count;
    const fields = mandate(alice.account);
    const answer = await exchanged(await exchange(await mintKey(), body(BASE, fields, await sign(alice.account, BASE, fields))));
    const after = await balance();
    expect(after.active_count).toBe(before + 1);
    expect(after.active[0]).toMatchObject({ id: answer.pint.id, audience: AUDIENCE, wallet: alice.account.address, chain_id: BASE });
    expect((await platform.api(`/v0/user/me/pints/${answer.pint.id}`, { method: "DELETE", jwt: alice.jwt })).status).toBe(200);
    expect((await balance()).active_count).toBe(before);
    // a key of another organisation holds none of them
    const founder = await platform.dashboard.sign({ sub: "balance-founder" });
    const org = (await (await platform.identity("/v0/organisations", { method: "POST", bearer: founder, json: { name: "Elsewhere" } })).json()).organisation.id;
    const env = (await (await platform.identity(`/v0/organisation/${org}/environments`, { method: "POST", bearer: founder, json: { name: "Prod" } })).json()).id;
    const foreign = await platform.identity(`/v0/users/${alice.id}`, { bearer: await mintKey(["idsvc.lookup", "idsvc.get_pints"], org, env, founder) });
    expect(foreign.status).toBe(404);
  });
});

describe("revocation", () => {
  it("by the user (platform host): 409 PINT-409-002 on re-exchange and 401 PINT-401-006 for the issued JWT, at once", async () => {
    const fields = mandate(alice.account);
    const json = body(BASE, fields, await sign(alice.account, BASE, fields));
    const answer = await exchanged(await exchange(await mintKey(), json));
    expect((await withPint(`/v0/users/${alice.id}`, answer.token)).status).toBe(200);

    const listed = await (await platform.api("/v0/user/me/pints", { jwt: alice.jwt })).json();
    expect(listed.items.map((p: { id: string }) => p.id)).toContain(answer.pint.id);
    // someone else's mandate does not exist for bob
    await expectProblem(await platform.api(`/v0/user/me/pints/${answer.pint.id}`, { method: "DELETE", jwt: bob.jwt }), 404, "PINT-404-001");

    const revoked = await platform.api(`/v0/user/me/pints/${answer.pint.id}`, { method: "DELETE", jwt: alice.jwt });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ id: answer.pint.id, status: "revoked", revoked_by: "user", revoked_at: expect.any(Number) });

    await expectProblem(await withPint(`/v0/users/${alice.id}`, answer.token), 401, "PINT-401-006");
    await expectProblem(await withPint("/v0/idsvc/token/pint", answer.token), 401, "PINT-401-006");
    await expectProblem(await exchange(await mintKey(), json), 409, "PINT-409-002");
    expect((await (await platform.api(`/v0/user/me/pints/${answer.pint.id}`, { jwt: alice.jwt })).json()).status).toBe("revoked");
  });

  it("only by the mandate's own user: not by a user holding the wallet in another environment, nor by one who registers it later", async () => {
    // a user of its own, since others will hold its wallet too
    const dave = await kycUser(privateKeyToAccount(generatePrivateKey()), BASE, true);
    const answer = await exchanged(await signedExchange(await mintKey(), dave.account, mandate(dave.account)));
    const revoke = (jwt: string, headers: Record<string, string> = {}) => platform.api(`/v0/user/me/pints/${answer.pint.id}`, { method: "DELETE", jwt, headers });

    // a user of another environment whose primary EOA is dave's key
    const environment = await platform.identity(`/v0/organisation/${ORG}/environments`, {
      method: "POST",
      bearer: owner,
      json: { name: "Elsewhere", auth_providers: [{ name: "provider_a", issuer: platform.issuer.issuer, jwks_uri: platform.issuer.jwksUri }] },
    });
    expect(environment.status).toBe(201);
    const orgid = `${ORG}:${(await environment.json()).id}`;
    const elsewhereJwt = await platform.issuer.sign({ sub: `elsewhere-${randomUUID()}` });
    const registered = await platform.api("/v0/user/", {
      method: "POST",
      jwt: elsewhereJwt,
      headers: { "x-platform-orgid": orgid },
      json: await registrationBody(elsewhereJwt, { account: dave.account, chain_id: BASE, environment_id: orgid }),
    });
    expect(registered.status).toBe(201);
    await expectProblem(await revoke(elsewhereJwt, { "x-platform-orgid": orgid }), 404, "PINT-404-001");

    // a user of the same environment who registers dave's wallet after the mandate (with dave's signature)
    const later = await platform.createUser();
    const fields = { user_id: later.id, address: dave.account.address, chain_id: BASE, type: "EOA", role: "wallet", issued_at: Date.now() };
    const wallet = await platform.api("/v0/wallets", {
      method: "POST",
      jwt: later.jwt,
      json: { ...fields, user_id: undefined, signature: await dave.account.signMessage({ message: walletRegistrationMessage(fields) }) },
    });
    expect(wallet.status).toBe(201);
    await expectProblem(await revoke(later.jwt), 404, "PINT-404-001");

    expect((await (await platform.api(`/v0/user/me/pints/${answer.pint.id}`, { jwt: dave.jwt })).json()).status).toBe("active");
    expect((await withPint(`/v0/users/${dave.id}`, answer.token)).status).toBe(200);
  });

  it("by the organisation (dashboard session) for its audience: the same, and other organisations cannot", async () => {
    const fields = mandate(alice.account, { scopes: ["profile.read"] });
    const json = body(BASE, fields, await sign(alice.account, BASE, fields));
    const answer = await exchanged(await exchange(await mintKey(), json));

    const listed = await (await platform.identity(`/v0/organisation/${ORG}/pints?audience=${AUDIENCE}`, { bearer: owner })).json();
    expect(listed.items.map((p: { id: string }) => p.id)).toContain(answer.pint.id);

    const stranger = await platform.dashboard.sign({ sub: "pint-stranger" });
    const strangerOrg = (await (await platform.identity("/v0/organisations", { method: "POST", bearer: stranger, json: { name: "Stranger" } })).json()).organisation.id;
    await expectProblem(await platform.identity(`/v0/organisation/${ORG}/pints/${answer.pint.id}`, { method: "DELETE", bearer: stranger }), 404, "IDS-404-001");
    await expectProblem(await platform.identity(`/v0/organisation/${strangerOrg}/pints/${answer.pint.id}`, { method: "DELETE", bearer: stranger }), 404, "PINT-404-001");

    const revoked = await platform.identity(`/v0/organisation/${ORG}/pints/${answer.pint.id}`, { method: "DELETE", bearer: owner });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ id: answer.pint.id, status: "revoked", revoked_by: "organisation" });

    await expectProblem(await withPint(`/v0/users/${alice.id}`, answer.token), 401, "PINT-401-006");
    await expectProblem(await exchange(await mintKey(), json), 409, "PINT-409-002");
    // the user sees who revoked it
    expect((await (await platform.api(`/v0/user/me/pints/${answer.pint.id}`, { jwt: alice.jwt })).json()).revoked_by).toBe("organisation");
  });

  it("removing an audience revokes its mandates and makes it unregistered (400 PINT-400-002)", async () => {
    const identifier = `com.example.short-lived-${Date.now()}`;
    const audience = await (await platform.identity(`/v0/organisation/${ORG}/audiences`, { method: "POST", bearer: owner, json: { identifier } })).json();
    expect(audience.audience).toBe(`${ORG}:${identifier}`);
    const answer = await exchanged(await signedExchange(await mintKey(), alice.account, mandate(alice.account, { audience: audience.audience })));
    expect((await platform.identity(`/v0/organisation/${ORG}/audiences/${audience.id}`, { method: "DELETE", bearer: owner })).status).toBe(204);
    await expectProblem(await withPint(`/v0/users/${alice.id}`, answer.token), 401, "PINT-401-006");
    await expectProblem(await signedExchange(await mintKey(), alice.account, mandate(alice.account, { audience: audience.audience })), 400, "PINT-400-002");
  });
});

describe("a Safe wallet (EIP-1271 on the in-process chain)", () => {
  let safeOwner: PrivateKeyAccount; // the user's primary EOA and an owner of the Safe
  let agent: PrivateKeyAccount; // a signer registered on the Safe (and an owner on chain)
  let unregistered: PrivateKeyAccount; // an owner on chain the platform does not know
  let safe: Address;
  let user: KycUser;

  beforeAll(async () => {
    safeOwner = privateKeyToAccount(generatePrivateKey());
    agent = privateKeyToAccount(generatePrivateKey());
    unregistered = privateKeyToAccount(generatePrivateKey());
    user = await kycUser(safeOwner, DEVNET, true);
    safe = getAddress(await deploySafeLikeAccount(devnet, [safeOwner.address, agent.address, unregistered.address]));

    // register the deployed Safe (its ERC-1271 proof checked on chain), make it the primary Safe, add the agent as its signer
    const issued_at = Date.now();
    const safeFields = { user_id: user.id, address: safe, chain_id: DEVNET, type: "Safe", role: "wallet", issued_at };
    const registered = await platform.api("/v0/wallets", {
      method: "POST",
      jwt: user.jwt,
      json: { ...safeFields, user_id: undefined, signature: await signAsSafeOwner(safeOwner, safe, DEVNET, hashMessage(walletRegistrationMessage(safeFields))) },
    });
    const wallet = await registered.json();
    expect(registered.status, JSON.stringify(wallet)).toBe(201);
    expect((await platform.api(`/v0/wallets/${wallet.id}`, { method: "PATCH", jwt: user.jwt, json: { is_primary: true } })).status).toBe(200);
    const agentFields = { user_id: user.id, address: agent.address, chain_id: DEVNET, type: "EOA", role: "signer", issued_at };
    const signer = await platform.api("/v0/wallets", {
      method: "POST",
      jwt: user.jwt,
      json: { ...agentFields, user_id: undefined, signature: await agent.signMessage({ message: walletRegistrationMessage(agentFields) }) },
    });
    expect(signer.status).toBe(201);
    expect((await signer.json()).signer_of_wallet_id).toBe(wallet.id);
  });

  const safeMandate = (signer: PrivateKeyAccount, overrides: Partial<MandateFields> = {}) => mandate(signer, { wallet: safe, signer: signer.address, ...overrides });

  async function safeExchange(signer: PrivateKeyAccount, fields: MandateFields, chainId = DEVNET, key?: string) {
    return exchange(key ?? (await mintKey()), body(chainId, fields, await signForSafe(signer, chainId, fields)));
  }

  it("accepts a mandate the Safe validates (isValidSignature), signed by the user's primary EOA: any scope", async () => {
    const fields = safeMandate(safeOwner, { scopes: ["profile.read", "payments.write"] });
    const answer = await exchanged(await safeExchange(safeOwner, fields));
    expect(answer.pint).toMatchObject({ wallet: safe, chain_id: DEVNET, signer: safeOwner.address, signer_role: "owner", user_id: user.id, scopes: ["profile.read", "payments.write"] });
    expect((await withPint(`/v0/users/${user.id}`, answer.token)).status).toBe(200);
  });

  it("lets a registered agent signer grant read scopes only: others 403 PINT-403-001", async () => {
    const read = await exchanged(await safeExchange(agent, safeMandate(agent, { scopes: ["profile.read", "balances.read"] })));
    expect(read.pint.signer_role).toBe("agent");
    const problem = await expectProblem(await safeExchange(agent, safeMandate(agent, { scopes: ["profile.read", "payments.write"] })), 403, "PINT-403-001");
    expect(problem.detail).toMatch(/payments\.write/);
  });

  it("answers 403 PINT-403-001 for a Safe owner the platform does not know as a signer of this wallet", async () => {
    const problem = await expectProblem(await safeExchange(unregistered, safeMandate(unregistered)), 403, "PINT-403-001");
    expect(problem.detail).toContain(unregistered.address);
  });

  it("answers 401 PINT-401-002 when the Safe does not accept the signature", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    const problem = await expectProblem(await safeExchange(stranger, safeMandate(stranger)), 401, "PINT-401-002");
    expect(problem.detail).toContain(safe);
  });

  it("answers 401 PINT-401-001 when the signature is not the declared signer's", async () => {
    const fields = safeMandate(agent, { scopes: ["profile.read"] });
    await expectProblem(await exchange(await mintKey(), body(DEVNET, fields, await signForSafe(safeOwner, DEVNET, fields))), 401, "PINT-401-001");
  });

  it("answers 424 PINT-424-001 while the chain's RPC is down, and the same mandate exchanges once it is back", async () => {
    const fields = safeMandate(safeOwner);
    const json = body(DEVNET, fields, await signForSafe(safeOwner, DEVNET, fields));
    rpc.down = true;
    try {
      const problem = await expectProblem(await exchange(await mintKey(), json), 424, "PINT-424-001");
      expect(problem.detail).toContain(String(DEVNET));
    } finally {
      rpc.down = false;
    }
    await exchanged(await exchange(await mintKey(), json));
  });

  it("answers 424 PINT-424-001 when the RPC does not answer at all or fails every call", async () => {
    for (const chainId of [DEAD_CHAIN, FAILING_CHAIN]) {
      await expectProblem(await safeExchange(safeOwner, safeMandate(safeOwner), chainId), 424, "PINT-424-001");
    }
  });

  it("answers 401 PINT-401-002 for a Safe mandate on a chain without an RPC", async () => {
    const problem = await expectProblem(await safeExchange(safeOwner, safeMandate(safeOwner), BASE), 401, "PINT-401-002");
    expect(problem.detail).toMatch(/No RPC is configured for chain 8453/);
  });
});

describe("audiences: errors", () => {
  const audiences = `/v0/organisation/${ORG}/audiences`;
  const listed = async () => (await (await platform.identity(audiences, { bearer: owner })).json()).items.map((a: { identifier: string }) => a.identifier).sort();

  it("answers 403 IDS-403-003 to a plain member registering or removing an audience, and changes nothing", async () => {
    expect((await platform.identity(`/v0/organisation/${ORG}/members`, { method: "POST", bearer: owner, json: { sub: "pint-plain-member", role: "member" } })).status).toBe(201);
    const member = await platform.dashboard.sign({ sub: "pint-plain-member" });
    const [audience] = (await (await platform.identity(audiences, { bearer: member })).json()).items;
    const before = await listed();
    await expectProblem(await platform.identity(audiences, { method: "POST", bearer: member, json: { identifier: "com.example.member-made" } }), 403, "IDS-403-003");
    await expectProblem(await platform.identity(`${audiences}/${audience.id}`, { method: "DELETE", bearer: member }), 403, "IDS-403-003");
    expect(await listed()).toEqual(before);
  });

  it("answers 409 IDS-409-001 to registering an identifier the organisation already registered, and keeps the one", async () => {
    const identifier = `com.example.twice-${Date.now()}`;
    expect((await platform.identity(audiences, { method: "POST", bearer: owner, json: { identifier } })).status).toBe(201);
    const problem = await expectProblem(await platform.identity(audiences, { method: "POST", bearer: owner, json: { identifier, name: "Again" } }), 409, "IDS-409-001");
    expect(problem.detail).toContain(identifier);
    expect((await listed()).filter((registered: string) => registered === identifier)).toEqual([identifier]);
  });
});

describe("documentation", () => {
  it("puts the EIP-712 domain and types, a viem example, the check order and the PINT token's endpoints in /openapi.json", async () => {
    const document = await (await platform.identity("/openapi.json")).json();
    const operation = document.paths["/v0/idsvc/token/pint"].post;
    expect(operation.operationId).toBe("exchangePint");
    expect(operation.description).toContain('domain  = { name: "PINT", version: "1", chainId: <chain of the wallet>, salt: <this deployment\'s salt> }');
    expect(operation.description).toContain(`This deployment's salt is \`${platform.config.pintDomainSalt}\``);
    expect(operation.description).toContain("PINT_DOMAIN_SALT");
    expect(operation.description).toContain('{ name: "expiresAt", type: "uint64"   }');
    expect(operation.description).toContain("signTypedData");
    expect(operation.description).toContain("PINT-409-001");
    expect(operation.description).toContain("x-platform-pint-token");
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "403", "409", "410", "424", "429"]));
    expect(operation.requestBody.content["application/json"].schema.properties.mandate.required).toEqual(["wallet", "signer", "audience", "scopes", "nonce", "expiresAt"]);
    expect(document.paths["/v0/users/{sri}"].get.security).toEqual([{ ApiKey: [] }, { PintToken: [] }]);
    expect(document.components.securitySchemes.PintToken).toMatchObject({ type: "apiKey", in: "header", name: "x-platform-pint-token" });
    expect(document.paths["/v0/organisation/{org_id}/pints/{pint_id}"].delete.operationId).toBe("revokeOrganisationPint");
    const platformDocument = await (await platform.api("/openapi.json")).json();
    expect(platformDocument.paths["/v0/user/me/pints/{pint_id}"].delete.operationId).toBe("revokeMyPint");
  });
});
