import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SandboxSafeDeployer } from "../../../subgraphs/users/safe/sandbox-safe-deployer.ts";
import { walletRegistrationMessage } from "../../../subgraphs/users/wallets/register-wallet.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { newAccount } from "../../support/registration.ts";
import { expectCredentialCases, statusAndCode, type RouteCall } from "../../support/route-cases.ts";

let platform: TestPlatform;
// owners (lower case) whose Safe deployment the sandbox fails, switchable per test
const failingOwners = new Set<string>();

beforeAll(async () => {
  platform = await startTestPlatform(
    {},
    { safeDeployer: new SandboxSafeDeployer({ delayMs: 0, fail: (r) => (r.owners.some((o) => failingOwners.has(o.toLowerCase())) ? "sandbox failure" : undefined) }) },
  );
});
afterAll(() => platform?.stop());

async function waitForSafe(jwt: string, walletId: number, status: string) {
  for (let i = 0; i < 100; i++) {
    const wallet = await (await platform.api(`/v0/wallets/${walletId}`, { jwt })).json();
    if (wallet.safe_creation_status === status) return wallet;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Safe ${walletId} never reached ${status}`);
}

async function register(jwt: string, userId: string, options: { type?: "EOA" | "Safe"; role?: "wallet" | "signer"; chain_id?: number; issued_at?: number; signer?: ReturnType<typeof privateKeyToAccount> } = {}) {
  const account = options.signer ?? privateKeyToAccount(generatePrivateKey());
  const fields = { user_id: userId, address: account.address, chain_id: options.chain_id ?? 8453, type: options.type ?? "EOA", role: options.role ?? "wallet", issued_at: options.issued_at ?? Date.now() };
  const signature = await account.signMessage({ message: walletRegistrationMessage(fields) });
  const { user_id: _u, ...body } = fields;
  return platform.api("/v0/wallets", { method: "POST", jwt, json: { ...body, signature } });
}

describe("wallets", () => {
  it("lists EOA and Safe wallets with chain_id and is_eoa filters", async () => {
    const { jwt } = await platform.createUser({ chain_id: 8453 });
    const all = await (await platform.api("/v0/wallets", { jwt })).json();
    expect(all.items.map((w: { type: string }) => w.type).sort()).toEqual(["EOA", "Safe"]);
    expect(all._links.self.href).toMatch(/\/v0\/wallets$/);
    const eoas = await (await platform.api("/v0/wallets?is_eoa=true", { jwt })).json();
    expect(eoas.items.map((w: { type: string }) => w.type)).toEqual(["EOA"]);
    const safes = await (await platform.api("/v0/wallets?is_eoa=false", { jwt })).json();
    expect(safes.items.map((w: { type: string }) => w.type)).toEqual(["Safe"]);
    expect((await (await platform.api("/v0/wallets?chain_id=1", { jwt })).json()).items).toEqual([]);
    const bad = await platform.api("/v0/wallets?is_eoa=maybe", { jwt });
    expect(bad.status).toBe(422);
    expect((await bad.json()).detail[0]).toMatchObject({ loc: ["query", "is_eoa"], type: "bool_type" });
  });

  it("hides another user's wallet: 404 WAL-404-001", async () => {
    const alice = await platform.createUser();
    const bob = await platform.createUser();
    const aliceWallet = (await (await platform.api("/v0/wallets", { jwt: alice.jwt })).json()).items[0];
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const response = await platform.api(`/v0/wallets/${aliceWallet.id}`, { method, jwt: bob.jwt, ...(method === "PATCH" && { json: { nickname: "mine" } }) });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error_code: "WAL-404-001", title: "Wallet Not Found" });
    }
    expect((await platform.api("/v0/wallets/abc", { jwt: bob.jwt })).status).toBe(422);
  });

  it("renames a wallet and clears the nickname", async () => {
    const { jwt } = await platform.createUser();
    const eoa = (await (await platform.api("/v0/wallets?is_eoa=true", { jwt })).json()).items[0];
    const renamed = await platform.api(`/v0/wallets/${eoa.id}`, { method: "PATCH", jwt, json: { nickname: "Main" } });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: eoa.id, nickname: "Main", _links: { self: { href: expect.stringContaining(`/v0/wallets/${eoa.id}`) } } });
    expect((await (await platform.api(`/v0/wallets/${eoa.id}`, { method: "PATCH", jwt, json: { nickname: null } })).json()).nickname).toBeNull();
  });

  it("registers a further EOA with an EIP-191 proof and refuses bad, stale or duplicate proofs", async () => {
    const { jwt, id } = await platform.createUser();
    const account = privateKeyToAccount(generatePrivateKey());
    const created = await register(jwt, id, { signer: account });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ address: account.address, type: "EOA", role: "wallet", is_primary: false });
    expect(await statusAndCode(await register(jwt, id, { signer: account }))).toEqual({ status: 409, code: "WAL-409-003" });

    const stale = await register(jwt, id, { issued_at: Date.now() - 11 * 60_000 });
    expect(stale.status).toBe(400);
    expect((await stale.json()).error_code).toBe("WAL-400-001");

    const other = privateKeyToAccount(generatePrivateKey());
    const fields = { user_id: id, address: account.address, chain_id: 10, type: "EOA", role: "wallet", issued_at: Date.now() };
    const forged = await platform.api("/v0/wallets", {
      method: "POST",
      jwt,
      json: { ...fields, user_id: undefined, signature: await other.signMessage({ message: walletRegistrationMessage(fields) }) },
    });
    expect(forged.status).toBe(400);
    expect((await forged.json()).error_code).toBe("WAL-400-001");
  });

  it("keeps signer addresses out of lists, readable by id, and undeletable", async () => {
    const { jwt, id } = await platform.createUser();
    const response = await register(jwt, id, { role: "signer" });
    expect(response.status).toBe(201);
    const signer = await response.json();
    expect(signer.role).toBe("signer");
    expect(signer.signer_of_wallet_id).toEqual(expect.any(Number));
    const listed = await (await platform.api("/v0/wallets", { jwt })).json();
    expect(listed.items.map((w: { id: number }) => w.id)).not.toContain(signer.id);
    const me = await (await platform.api("/v0/user/me?expand=wallets", { jwt })).json();
    expect(me.wallets.map((w: { id: number }) => w.id)).not.toContain(signer.id);
    expect((await platform.api(`/v0/wallets/${signer.id}`, { jwt })).status).toBe(200);
    const deletion = await platform.api(`/v0/wallets/${signer.id}`, { method: "DELETE", jwt });
    expect(deletion.status).toBe(409);
    expect((await deletion.json()).error_code).toBe("WAL-409-001");
  });

  it("refuses to delete a primary wallet and soft-deletes others", async () => {
    const { jwt, id } = await platform.createUser();
    const primary = (await (await platform.api("/v0/wallets?is_eoa=true", { jwt })).json()).items[0];
    const refused = await platform.api(`/v0/wallets/${primary.id}`, { method: "DELETE", jwt });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error_code).toBe("WAL-409-002");

    const extra = await (await register(jwt, id)).json();
    expect((await platform.api(`/v0/wallets/${extra.id}`, { method: "DELETE", jwt })).status).toBe(204);
    expect((await platform.api(`/v0/wallets/${extra.id}`, { jwt })).status).toBe(404);
    const row = await (platform.subgraphs.users as any).services.db.wallet.findUnique({ where: { id: extra.id } });
    expect(row.deleted_at).toBeInstanceOf(Date);
  });

  it("moves the primary EOA to another chain and deploys a primary Safe there: 202", async () => {
    const { jwt, id } = await platform.createUser({ chain_id: 8453 });
    const account = privateKeyToAccount(generatePrivateKey());
    const eoa = await (await register(jwt, id, { signer: account, chain_id: 10 })).json();
    const response = await platform.api(`/v0/wallets/${eoa.id}`, { method: "PATCH", jwt, json: { is_primary: true } });
    expect(response.status).toBe(202);
    const body = await response.json();
    expect(body.is_primary).toBe(true);
    expect(body._links.safe.href).toMatch(/\/v0\/wallets\/\d+$/);
    const me = await (await platform.api("/v0/user/me?expand=wallets", { jwt })).json();
    expect(me.primary_chain_id).toBe(10);
    expect(me.primary_eoa_address).toBe(account.address);
    const primaries = me.wallets.filter((w: { is_primary: boolean }) => w.is_primary);
    expect(primaries.map((w: { type: string; chain_id: number }) => `${w.type}@${w.chain_id}`).sort()).toEqual(["EOA@10", "Safe@10"]);
  });

  it("designates a deployed Safe on another chain primary: the primary EOA follows it to that chain (200)", async () => {
    const { jwt, id } = await platform.createUser({ chain_id: 8453 });
    const baseSafe = (await (await platform.api("/v0/wallets?is_eoa=false", { jwt })).json()).items[0];
    await waitForSafe(jwt, baseSafe.id, "completed");
    const account = privateKeyToAccount(generatePrivateKey());
    const opEoa = await (await register(jwt, id, { signer: account, chain_id: 10 })).json();
    const moved = await platform.api(`/v0/wallets/${opEoa.id}`, { method: "PATCH", jwt, json: { is_primary: true } });
    expect(moved.status).toBe(202);
    await waitForSafe(jwt, (await moved.json())._links.safe.href.split("/").pop(), "completed");

    const back = await platform.api(`/v0/wallets/${baseSafe.id}`, { method: "PATCH", jwt, json: { is_primary: true } });
    expect(back.status).toBe(200);
    const me = await (await platform.api("/v0/user/me?expand=wallets", { jwt })).json();
    expect(me.primary_chain_id).toBe(8453);
    const primaries = me.wallets.filter((w: { is_primary: boolean }) => w.is_primary);
    expect(primaries.map((w: { type: string; chain_id: number }) => `${w.type}@${w.chain_id}`).sort()).toEqual(["EOA@8453", "Safe@8453"]);
    expect(primaries.find((w: { type: string }) => w.type === "EOA").address.toLowerCase()).toBe(account.address.toLowerCase());

    const unset = await platform.api(`/v0/wallets/${primaries[0].id}`, { method: "PATCH", jwt, json: { is_primary: false } });
    expect(unset.status).toBe(400);
    expect((await unset.json()).error_code).toBe("WAL-400-002");
  });

  it("runs a failed Safe creation again on PATCH retry: failed → processing → completed", async () => {
    const account = newAccount();
    const address = account.address;
    failingOwners.add(address.toLowerCase());
    const { jwt } = await platform.createUser({ account });
    const safe = (await (await platform.api("/v0/wallets?is_eoa=false", { jwt })).json()).items[0];
    const failed = await waitForSafe(jwt, safe.id, "failed");
    expect((await (await platform.api("/v0/user/me", { jwt })).json()).safe_creation_status).toBe("failed");

    const notFailed = await platform.api(`/v0/wallets/${(await (await platform.api("/v0/wallets?is_eoa=true", { jwt })).json()).items[0].id}`, { method: "PATCH", jwt, json: { retry_safe_creation: true } });
    expect(await statusAndCode(notFailed)).toEqual({ status: 409, code: "WAL-409-004" });

    failingOwners.delete(address.toLowerCase());
    const retry = await platform.api(`/v0/wallets/${safe.id}`, { method: "PATCH", jwt, json: { retry_safe_creation: true } });
    expect(retry.status).toBe(202);
    const retried = await retry.json();
    expect(retried.safe_creation_status).toBe("processing");
    expect(retried.safe_creation_event_id).not.toBe(failed.safe_creation_event_id);
    const completed = await waitForSafe(jwt, safe.id, "completed");
    expect(completed.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });
});

describe("wallets: security", () => {
  it("answers 401 without a credential; a read-only personal access token and an agent token holding read:balances read wallets, the PAT registers, changes, proves and deletes nothing (403 USR-403-001), other agent tokens read none (403 AGT-403-001)", async () => {
    const { jwt, id } = await platform.createUser();
    const wallet = (await (await platform.api("/v0/wallets", { jwt })).json()).items[0];
    const reads: RouteCall[] = [{ path: "/v0/wallets" }, { path: `/v0/wallets/${wallet.id}` }];
    const signer = privateKeyToAccount(generatePrivateKey());
    const fields = { user_id: id, address: signer.address, chain_id: 8453, type: "EOA", role: "wallet", issued_at: Date.now() };
    const { user_id: _u, ...registration } = fields;
    const writes: RouteCall[] = [
      { method: "POST", path: "/v0/wallets", json: { ...registration, signature: await signer.signMessage({ message: walletRegistrationMessage(fields) }) } },
      { method: "PATCH", path: `/v0/wallets/${wallet.id}`, json: { nickname: "probe" } },
      { method: "POST", path: `/v0/wallets/${wallet.id}/address-proof`, json: {} },
      { method: "DELETE", path: `/v0/wallets/${wallet.id}` },
    ];
    await expectCredentialCases(platform, jwt, { reads, writes, agentScope: "read:balances" });
  });
});
