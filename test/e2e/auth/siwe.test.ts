import "reflect-metadata";
import { createLocalJWKSet, decodeJwt, jwtVerify } from "jose";
import { encodeDeployData, encodeFunctionData, getContractAddress, keccak256, serializeErc6492Signature, toHex, type Address, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage, parseSiweMessage, type CreateSiweMessageParameters } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UsersTx } from "../../../subgraphs/users/db.ts";
import { consumeSiweNonce } from "../../../subgraphs/users/siwe/siwe-nonces.ts";
import { compileSolidity, startDevnet as startChain, startFailingRpc, type Compiled } from "../../support/devnet.ts";
import { freePort, startTestPlatform, type TestPlatform } from "../../support/platform.ts";

const ISSUER = "https://siwe.platform.test";
const AUDIENCE = "platform-api";
const DEVNET = 900; // tevm's in-process chain, served over loopback JSON-RPC
const DEAD_CHAIN = 901; // an RPC URL where nothing listens
const WRONG_CHAIN = 902; // an RPC URL that serves chain 900
const FAILING_CHAIN = 903; // an RPC that answers eth_chainId, then HTTP 503 to everything else

/** A minimal smart account (ERC-1271: valid when its owner signed the hash) and a CREATE2 factory for it (ERC-6492). */
const CONTRACTS = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract OwnedAccount {
  address public immutable owner;
  constructor(address o) { owner = o; }
  function isValidSignature(bytes32 hash, bytes calldata sig) external view returns (bytes4) {
    if (sig.length != 65) return 0xffffffff;
    bytes32 r; bytes32 s; uint8 v;
    assembly { r := calldataload(sig.offset) s := calldataload(add(sig.offset, 32)) v := byte(0, calldataload(add(sig.offset, 64))) }
    return ecrecover(hash, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
  }
}
contract AccountFactory {
  function deploy(address o, bytes32 salt) external returns (address) { return address(new OwnedAccount{salt: salt}(o)); }
}`;

/** The in-process chain with the contracts above compiled and ready to deploy. */
async function startDevnet() {
  const chain = await startChain();
  const contracts = compileSolidity(CONTRACTS, "accounts.sol") as Record<"OwnedAccount" | "AccountFactory", Compiled>;
  return {
    ...chain,
    contracts,
    /** a deployed OwnedAccount of `owner` */
    deployAccount: (owner: Address) => chain.deploy(contracts.OwnedAccount, [owner]),
    deployFactory: () => chain.deploy(contracts.AccountFactory, []),
  };
}

let devnet: Awaited<ReturnType<typeof startDevnet>>;
let failingRpc: Awaited<ReturnType<typeof startFailingRpc>>;
let platform: TestPlatform;
let domain: string;

beforeAll(async () => {
  devnet = await startDevnet();
  failingRpc = await startFailingRpc(FAILING_CHAIN);
  const dead = `http://127.0.0.1:${await freePort()}`;
  platform = await startTestPlatform({
    AUTH_PROVIDERS: JSON.stringify([{ name: "siwe", issuer: ISSUER, audience: AUDIENCE }]),
    CHAIN_RPC_URLS: JSON.stringify({ [DEVNET]: devnet.url, [DEAD_CHAIN]: dead, [WRONG_CHAIN]: devnet.url, [FAILING_CHAIN]: failingRpc.url }),
  });
  domain = new URL(platform.config.publicBaseUrl).host;
});
afterAll(async () => {
  await platform?.stop();
  await devnet?.stop();
  await failingRpc?.stop();
});

async function nonce(): Promise<string> {
  const response = await platform.api("/v0/auth/siwe/nonce", { method: "POST" });
  expect(response.status).toBe(201);
  return (await response.json()).nonce;
}

type MessageFields = Partial<Omit<CreateSiweMessageParameters, "address">> & { address: Address };

async function message(fields: MessageFields): Promise<string> {
  return createSiweMessage({
    domain,
    uri: platform.config.publicBaseUrl,
    version: "1",
    chainId: 8453,
    nonce: fields.nonce ?? (await nonce()),
    issuedAt: new Date(),
    statement: "Sign in to the platform.",
    ...fields,
  });
}

function verify(body: { message: string; signature: string }) {
  return platform.api("/v0/auth/siwe/verify", { method: "POST", json: body });
}

async function signIn(account: PrivateKeyAccount, fields: Partial<MessageFields> = {}) {
  const text = await message({ address: account.address, ...fields });
  return { message: text, signature: await account.signMessage({ message: text }) };
}

async function expectProblem(response: Response, status: number, code: string): Promise<any> {
  const body = await response.json();
  expect({ status: response.status, code: body.error_code }).toEqual({ status, code });
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  return body;
}

describe("POST /v0/auth/siwe/nonce", () => {
  it("issues a random single-use nonce with the message's required values", async () => {
    const before = Date.now();
    const response = await platform.api("/v0/auth/siwe/nonce", { method: "POST" });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(body.expires_at).toBeGreaterThanOrEqual(before + 10 * 60_000 - 1000);
    expect(body.expires_at).toBeLessThanOrEqual(Date.now() + 10 * 60_000 + 1000);
    expect(body).toMatchObject({ domain, uri: platform.config.publicBaseUrl, scheme: "http", version: "1" });
    expect(body.chain_ids).toEqual(expect.arrayContaining([1, 8453, DEVNET]));
    expect(body._links.verify).toEqual({ href: `${platform.config.publicBaseUrl}/v0/auth/siwe/verify`, method: "POST", description: expect.any(String) });
    expect(await nonce()).not.toBe(body.nonce);
    const rows = await platform.database.query<{ used_at: unknown }>(`SELECT used_at FROM users.siwe_nonces WHERE nonce = $1`, [body.nonce]);
    expect(rows).toEqual([{ used_at: null }]);
  });

  it("formats expires_at as ISO 8601 on request", async () => {
    const response = await platform.api("/v0/auth/siwe/nonce", { method: "POST", headers: { "x-timestamp-format": "iso8601" } });
    expect((await response.json()).expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});

describe("POST /v0/auth/siwe/verify with an EOA", () => {
  it("nonce → signed message → JWT → POST /v0/user/ → GET /v0/user/me with auth_provider siwe", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const response = await verify(await signIn(account));
    expect(response.status).toBe(200);
    const session = await response.json();
    expect(session).toMatchObject({ token_type: "JWT", address: account.address, chain_id: 8453 });
    expect(session._links.create_user).toMatchObject({ href: `${platform.config.publicBaseUrl}/v0/user/`, method: "POST" });

    const claims = decodeJwt(session.token);
    expect(claims).toMatchObject({ iss: ISSUER, sub: account.address, aud: AUDIENCE, chain_id: 8453 });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(session.expires_at).toBe(claims.exp! * 1000);

    const created = await platform.api("/v0/user/", { method: "POST", jwt: session.token, json: { primary_eoa_address: account.address, chain_id: 8453 } });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ auth_provider: "siwe", auth_provider_id: account.address, primary_eoa_address: account.address });
    const me = await platform.api("/v0/user/me", { jwt: session.token });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ auth_provider: "siwe", auth_provider_id: account.address });

    // a later sign-in of the same address reaches the same user
    const again = await (await verify(await signIn(account))).json();
    expect((await (await platform.api("/v0/user/me", { jwt: again.token })).json()).auth_provider_id).toBe(account.address);
  });

  it("serves the platform key at /.well-known/jwks.json, and it verifies the token", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { token } = await (await verify(await signIn(account))).json();
    const response = await platform.api("/.well-known/jwks.json");
    expect(response.status).toBe(200);
    const jwks = await response.json();
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).not.toHaveProperty("d");
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: ISSUER, audience: AUDIENCE });
    expect(payload.sub).toBe(account.address);
    expect(protectedHeader.kid).toBe(jwks.keys[0].kid);
  });

  it("refuses a nonce a second time: 401 SIW-401-002", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signed = await signIn(account);
    expect((await verify(signed)).status).toBe(200);
    const problem = await expectProblem(await verify(signed), 401, "SIW-401-002");
    expect(problem.detail).toMatch(/already been used/);
    // a new message with the used nonce, properly signed, fails the same way
    const reused = await signIn(account, { nonce: parseSiweMessage(signed.message).nonce! });
    await expectProblem(await verify(reused), 401, "SIW-401-002");
  });

  it("refuses an expired nonce and one never issued: 401 SIW-401-002", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const value = await nonce();
    await platform.database.query(`UPDATE users.siwe_nonces SET expires_at = now() - interval '1 second' WHERE nonce = $1`, [value]);
    const expired = await expectProblem(await verify(await signIn(account, { nonce: value })), 401, "SIW-401-002");
    expect(expired.detail).toMatch(/expired/);
    const unknown = await expectProblem(await verify(await signIn(account, { nonce: "abcdef0123456789abcdef0123456789" })), 401, "SIW-401-002");
    expect(unknown.detail).toMatch(/not issued/);
  });

  it("refuses a message for another domain (401 SIW-401-001) and leaves its nonce usable", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const value = await nonce();
    const problem = await expectProblem(await verify(await signIn(account, { nonce: value, domain: "evil.example" })), 401, "SIW-401-001");
    expect(problem.detail).toContain(domain);
    expect((await verify(await signIn(account, { nonce: value }))).status).toBe(200);
  });

  it("refuses a tampered message: 401 SIW-401-001", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signed = await signIn(account);
    const tampered = signed.message.replace("Sign in to the platform.", "Sign in to the platform!");
    expect(tampered).not.toBe(signed.message);
    await expectProblem(await verify({ ...signed, message: tampered }), 401, "SIW-401-001");
    const otherAddress = privateKeyToAccount(generatePrivateKey()).address;
    await expectProblem(await verify({ ...signed, message: signed.message.replace(account.address, otherAddress) }), 401, "SIW-401-001");
    // the untampered original still works: failures do not consume the nonce
    expect((await verify(signed)).status).toBe(200);
  });

  it("refuses a signature by another key: 401 SIW-401-001 (no RPC on chain 8453, and on chain 900 through the RPC)", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const other = privateKeyToAccount(generatePrivateKey());
    for (const chainId of [8453, DEVNET]) {
      const text = await message({ address: account.address, chainId });
      const problem = await expectProblem(await verify({ message: text, signature: await other.signMessage({ message: text }) }), 401, "SIW-401-001");
      expect(problem.detail).toContain(account.address);
    }
  });

  it("honours the message's time bounds and chain", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const past = await expectProblem(await verify(await signIn(account, { expirationTime: new Date(Date.now() - 1000) })), 401, "SIW-401-001");
    expect(past.detail).toMatch(/expired/);
    await expectProblem(await verify(await signIn(account, { notBefore: new Date(Date.now() + 60_000) })), 401, "SIW-401-001");
    await expectProblem(await verify(await signIn(account, { issuedAt: new Date(Date.now() + 10 * 60_000) })), 401, "SIW-401-001");
    const chain = await expectProblem(await verify(await signIn(account, { chainId: 424242 })), 401, "SIW-401-001");
    expect(chain.detail).toMatch(/Chain ID 424242/);

    // a session never outlives the message's Expiration Time
    const expirationTime = new Date(Date.now() + 10 * 60_000);
    const session = await (await verify(await signIn(account, { expirationTime }))).json();
    expect(session.expires_at).toBeLessThanOrEqual(expirationTime.getTime());
    expect(session.expires_at).toBeGreaterThan(expirationTime.getTime() - 5000);
  });

  it("of concurrent verifies with one nonce, exactly one succeeds", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signed = await signIn(account);
    const responses = await Promise.all(Array.from({ length: 8 }, () => verify(signed)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(7);
    for (const response of responses.filter((r) => r.status === 401)) expect((await response.json()).error_code).toBe("SIW-401-002");
  });

  it("consumes a nonce in one conditional UPDATE: of concurrent consumers exactly one wins", async () => {
    const db = (platform.subgraphs.users as unknown as { services: { db: UsersTx } }).services.db;
    for (let round = 0; round < 5; round++) {
      const value = await nonce();
      const results = await Promise.all(Array.from({ length: 8 }, () => consumeSiweNonce(db, value, new Date())));
      expect(results.filter(Boolean)).toHaveLength(1);
    }
    const expired = await nonce();
    await platform.database.query(`UPDATE users.siwe_nonces SET expires_at = now() - interval '1 second' WHERE nonce = $1`, [expired]);
    expect(await consumeSiweNonce(db, expired, new Date())).toBe(false);
    expect(await consumeSiweNonce(db, "neverissued00000", new Date())).toBe(false);
  });

  it("validates the body: 422", async () => {
    const missing = await expectProblem(await verify({ message: "x" } as never), 422, "GEN-422-001");
    expect(missing.detail).toEqual(expect.arrayContaining([expect.objectContaining({ loc: ["body", "signature"], type: "missing" })]));
    const notHex = await expectProblem(await verify({ message: "x", signature: "0xzz" }), 422, "GEN-422-001");
    expect(notHex.detail[0].loc).toEqual(["body", "signature"]);
    await expectProblem(await verify({ message: "not an EIP-4361 message", signature: "0x00" }), 401, "SIW-401-001");
  });

  it("documents both operations in /openapi.json", async () => {
    const document = await (await platform.api("/openapi.json")).json();
    expect(document.paths["/v0/auth/siwe/nonce"].post.operationId).toBe("createSiweNonce");
    expect(document.paths["/v0/auth/siwe/verify"].post.operationId).toBe("verifySiweMessage");
    expect(document.paths["/v0/auth/siwe/verify"].post.description).toContain("wants you to sign in with your Ethereum account");
    expect(Object.keys(document.paths["/v0/auth/siwe/verify"].post.responses)).toEqual(expect.arrayContaining(["200", "401", "422", "502", "503"]));
  });
});

describe("POST /v0/auth/siwe/verify with a smart account (chain 900, in-process EVM)", () => {
  it("accepts an ERC-1271 signature of a deployed account; sub is the account's address", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const account = await devnet.deployAccount(owner.address);
    expect(await devnet.code(account)).toMatch(/^0x[0-9a-f]{10,}/);
    const text = await message({ address: account, chainId: DEVNET });
    const response = await verify({ message: text, signature: await owner.signMessage({ message: text }) });
    expect(response.status).toBe(200);
    const session = await response.json();
    expect(session).toMatchObject({ address: account, chain_id: DEVNET });
    expect(decodeJwt(session.token)).toMatchObject({ sub: account, chain_id: DEVNET, iss: ISSUER });
    expect((await platform.api("/v0/user/me", { jwt: session.token })).status).toBe(404); // valid token, no user yet
  });

  it("refuses an ERC-1271 account's message signed by a key that is not its owner: 401", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const account = await devnet.deployAccount(owner.address);
    const text = await message({ address: account, chainId: DEVNET });
    const stranger = privateKeyToAccount(generatePrivateKey());
    await expectProblem(await verify({ message: text, signature: await stranger.signMessage({ message: text }) }), 401, "SIW-401-001");
  });

  it("accepts an ERC-6492 signature of a not yet deployed account (counterfactual, via its factory)", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const factory = await devnet.deployFactory();
    const { OwnedAccount, AccountFactory } = devnet.contracts;
    const salt = keccak256(toHex(`salt-${owner.address}`));
    const account = getContractAddress({
      opcode: "CREATE2",
      from: factory,
      salt,
      bytecode: encodeDeployData({ abi: OwnedAccount.abi, bytecode: OwnedAccount.bytecode, args: [owner.address] }),
    });
    expect(await devnet.code(account)).toBeUndefined();
    const text = await message({ address: account, chainId: DEVNET });
    const wrap = (signature: Hex) =>
      serializeErc6492Signature({ address: factory, data: encodeFunctionData({ abi: AccountFactory.abi, functionName: "deploy", args: [owner.address, salt] }), signature });
    const response = await verify({ message: text, signature: wrap(await owner.signMessage({ message: text })) });
    expect(response.status).toBe(200);
    expect((await response.json()).address).toBe(account);
    expect(await devnet.code(account)).toBeUndefined(); // verified by eth_call: nothing deployed

    const stranger = privateKeyToAccount(generatePrivateKey());
    const again = await message({ address: account, chainId: DEVNET });
    await expectProblem(await verify({ message: again, signature: wrap(await stranger.signMessage({ message: again })) }), 401, "SIW-401-001");
  });

  it("of concurrent verifies of one smart-account message (each checked on chain), exactly one succeeds", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const account = await devnet.deployAccount(owner.address);
    const text = await message({ address: account, chainId: DEVNET });
    const signature = await owner.signMessage({ message: text });
    const responses = await Promise.all(Array.from({ length: 6 }, () => verify({ message: text, signature })));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(bodies.filter((b) => b.error_code === "SIW-401-002")).toHaveLength(5);
  });

  it("refuses a smart-account signature on a chain without an RPC: 401 SIW-401-001 that says so", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const account = await devnet.deployAccount(owner.address);
    const text = await message({ address: account, chainId: 8453 });
    const problem = await expectProblem(await verify({ message: text, signature: await owner.signMessage({ message: text }) }), 401, "SIW-401-001");
    expect(problem.detail).toMatch(/no RPC is configured for chain 8453/);
  });

  it("answers 502 CHN-502-001 when the chain's RPC does not answer, serves another chain or fails the eth_call, and keeps the nonce", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const account = await devnet.deployAccount(owner.address);
    for (const chainId of [DEAD_CHAIN, WRONG_CHAIN, FAILING_CHAIN]) {
      const value = await nonce();
      const text = await message({ address: account, chainId, nonce: value });
      const problem = await expectProblem(await verify({ message: text, signature: await owner.signMessage({ message: text }) }), 502, "CHN-502-001");
      expect(problem.detail).toContain(String(chainId));
      const rows = await platform.database.query<{ used_at: unknown }>(`SELECT used_at FROM users.siwe_nonces WHERE nonce = $1`, [value]);
      expect(rows).toEqual([{ used_at: null }]);
    }
  });
});

describe("SIWE not configured", () => {
  let plain: TestPlatform;
  beforeAll(async () => {
    plain = await startTestPlatform();
  });
  afterAll(() => plain?.stop());

  it("answers 503 SIW-503-001 on both endpoints", async () => {
    await expectProblem(await plain.api("/v0/auth/siwe/nonce", { method: "POST" }), 503, "SIW-503-001");
    const account = privateKeyToAccount(generatePrivateKey());
    const text = createSiweMessage({ domain: new URL(plain.config.publicBaseUrl).host, address: account.address, uri: plain.config.publicBaseUrl, version: "1", chainId: 8453, nonce: "abcdef0123456789" });
    const response = await plain.api("/v0/auth/siwe/verify", { method: "POST", json: { message: text, signature: await account.signMessage({ message: text }) } });
    await expectProblem(response, 503, "SIW-503-001");
  });
});
