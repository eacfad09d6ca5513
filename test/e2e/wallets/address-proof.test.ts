import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrivateKeyAccount } from "viem/accounts";
import { walletAddressProofMessage } from "../../../subgraphs/users/wallets/address-proof.ts";
import { linkSandboxBank } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { newAccount } from "../../support/registration.ts";

// Issue 25, item 1: a spec client registers with the documented body alone; its address is
// recorded unproven (address_verified: false), and what a squatter could turn against the
// address's real owner waits for POST /v0/wallets/{wallet_id}/address-proof.
let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

interface PlainUser {
  jwt: string;
  sub: string;
  account: PrivateKeyAccount;
  user_id: string;
  eoa: { id: number; chain_id: number; address: string };
  safe_id: number;
}

/** A user registered as a spec client does: a plain access token and the documented body. */
async function plainUser(options: { kyc?: boolean } = {}): Promise<PlainUser> {
  const sub = `plain-${Math.random().toString(36).slice(2)}`;
  const jwt = await platform.issuer.sign({ sub });
  const account = newAccount();
  const created = await platform.api("/v0/user/", { method: "POST", jwt, json: { primary_eoa_address: account.address, chain_id: 8453 } });
  expect(created.status).toBe(201);
  const me = await (await platform.api("/v0/user/me?expand=wallets", { jwt })).json();
  if (options.kyc)
    for (const [path, json] of [["/v0/kyc/access-token", undefined], ["/v0/kyc/submissions", undefined], ["/v0/kyc/sandbox/decision", { answer: "GREEN" }]] as const)
      expect((await platform.api(path, { method: "POST", jwt, ...(json && { json }) })).ok).toBe(true);
  const eoa = me.wallets.find((w: { type: string }) => w.type === "EOA");
  return { jwt, sub, account, user_id: me.id, eoa, safe_id: me.wallets.find((w: { type: string }) => w.type === "Safe").id };
}

async function proofBody(user: PlainUser, signer: PrivateKeyAccount = user.account, issued_at = Date.now()) {
  const message = walletAddressProofMessage({ user_id: user.user_id, wallet_id: user.eoa.id, address: user.eoa.address as `0x${string}`, chain_id: user.eoa.chain_id, issued_at });
  return { issued_at, signature: await signer.signMessage({ message }) };
}

const prove = (user: PlainUser, json: unknown, jwt = user.jwt) => platform.api(`/v0/wallets/${user.eoa.id}/address-proof`, { method: "POST", jwt, json });
const wallet = async (jwt: string, id: number) => (await platform.api(`/v0/wallets/${id}`, { jwt })).json();

describe("POST /v0/wallets/{wallet_id}/address-proof", () => {
  it("proves the primary EOA with its signature; the Safe the platform deploys for it is proven with it; again is a no-op", async () => {
    const user = await plainUser();
    expect(await wallet(user.jwt, user.eoa.id)).toMatchObject({ address_verified: false });
    const proven = await prove(user, await proofBody(user));
    expect(proven.status).toBe(200);
    expect(await proven.json()).toMatchObject({ id: user.eoa.id, address_verified: true, _links: { self: { href: expect.stringContaining(`/v0/wallets/${user.eoa.id}`) } } });
    expect(await wallet(user.jwt, user.safe_id)).toMatchObject({ address_verified: true });
    const again = await prove(user, {});
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ address_verified: true });
  });

  it("accepts a JWT that vouches for the address, without a body field", async () => {
    const user = await plainUser();
    const vouching = await platform.issuer.sign({ sub: user.sub, linked_accounts: [{ type: "wallet", address: user.account.address }] });
    const proven = await prove(user, {}, vouching);
    expect(proven.status).toBe(200);
    expect(await proven.json()).toMatchObject({ address_verified: true });
  });

  it("refuses another key's signature and a stale one (400 WAL-400-001), and no proof at all (422), leaving the wallet unproven", async () => {
    const user = await plainUser();
    const forged = await prove(user, await proofBody(user, newAccount()));
    expect(forged.status).toBe(400);
    expect((await forged.json()).error_code).toBe("WAL-400-001");
    const stale = await prove(user, await proofBody(user, user.account, Date.now() - 11 * 60_000));
    expect(stale.status).toBe(400);
    expect((await stale.json()).error_code).toBe("WAL-400-001");
    const missing = await prove(user, {});
    expect(missing.status).toBe(422);
    expect((await missing.json()).detail[0].loc).toEqual(["body", "signature"]);
    expect(await wallet(user.jwt, user.eoa.id)).toMatchObject({ address_verified: false });
  });

  it("answers 404 for another user's wallet and 401 without a credential", async () => {
    const user = await plainUser();
    const other = await plainUser();
    const foreign = await prove(user, await proofBody(user), other.jwt);
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error_code).toBe("WAL-404-001");
    const anonymous = await platform.api(`/v0/wallets/${user.eoa.id}/address-proof`, { method: "POST", json: await proofBody(user) });
    expect(anonymous.status).toBe(401);
    expect(await wallet(user.jwt, user.eoa.id)).toMatchObject({ address_verified: false });
  });
});

describe("privileges that wait for the proof (403 WAL-403-001 naming it)", () => {
  async function refusedForProof(response: Response, wallet_id: number) {
    const problem = await response.json();
    expect(response.status, JSON.stringify(problem)).toBe(403);
    expect(problem).toMatchObject({ error_code: "WAL-403-001", title: "Wallet Address Not Proven" });
    expect(problem.detail).toContain(`POST /v0/wallets/${wallet_id}/address-proof`);
  }

  it("funding a card from the wallet, until the address is proven", async () => {
    const user = await plainUser({ kyc: true });
    const issue = () => platform.api("/v0/cards", { method: "POST", jwt: user.jwt, json: { type: "virtual", funding_source: { type: "crypto_wallet", id: user.eoa.id } } });
    await refusedForProof(await issue(), user.eoa.id);
    expect((await platform.api("/v0/cards", { jwt: user.jwt }).then((r) => r.json())).items).toEqual([]);
    expect((await prove(user, await proofBody(user))).status).toBe(200);
    expect((await issue()).status).toBe(201);
  });

  it("an off-ramp from the wallet (an on-ramp into it is the user's own money and goes ahead)", async () => {
    const user = await plainUser({ kyc: true });
    const [account] = await linkSandboxBank(platform, user.jwt);
    const quote = (direction: "on" | "off", amount: string) =>
      platform.api("/v0/ramps/quotes", { method: "POST", jwt: user.jwt, json: { direction, bank_account_id: account!.id, wallet_id: user.eoa.id, asset: "USDC", amount } });
    await refusedForProof(await quote("off", "10"), user.eoa.id);
    expect((await quote("on", "10.00")).status).toBe(201);
    expect((await prove(user, await proofBody(user))).status).toBe(200);
    expect((await quote("off", "10")).status).toBe(201);
  });
});
