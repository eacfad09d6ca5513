import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 9, assets and balances: GET /v0/wallets/{wallet_id}/assets and GET /v0/accounts over the
// ledger (BALANCE_SOURCE=ledger, the default), after sandbox deposits; exact values, another
// user's wallet invisible.

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

async function userWithWallets() {
  const user = await platform.createUser();
  const wallets = (await (await platform.api("/v0/wallets", { jwt: user.jwt })).json()).items as { id: number; type: string; address: string | null }[];
  return { ...user, wallets, eoa: wallets.find((w) => w.type === "EOA")!.id };
}

async function deposit(jwt: string, wallet_id: number, asset: string, amount: string) {
  const response = await platform.api("/v0/sandbox/deposits", { method: "POST", jwt, json: { wallet_id, asset, amount } });
  expect(response.status).toBe(201);
}

describe("GET /v0/wallets/{wallet_id}/assets", () => {
  it("lists the deposited assets with balances in base units and exact USD values", async () => {
    const { jwt, eoa } = await userWithWallets();
    await deposit(jwt, eoa, "ETH", "0.1");
    await deposit(jwt, eoa, "eth", "0.05");
    await deposit(jwt, eoa, "USDC", "25.5");
    await deposit(jwt, eoa, "USDC", "0.000001");

    const response = await platform.api(`/v0/wallets/${eoa}/assets`, { jwt });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.wallet_id).toBe(eoa);
    expect(body.assets.map((a: { asset: { symbol: string }; balance: string; value_usd: string }) => [a.asset.symbol, a.balance, a.value_usd])).toEqual([
      // 0.15 ETH at the default 3000.00
      ["ETH", "150000000000000000", "450"],
      // 25.500001 USDC at 1.00: the last micro-dollar is kept
      ["USDC", "25500001", "25.500001"],
    ]);
    expect(body.assets[1].asset).toMatchObject({ id: "ast_usdc", symbol: "USDC", name: expect.any(String), decimals: 6, price: { value_usd: "1.00" } });
    expect(body._links.self.href).toMatch(new RegExp(`/v0/wallets/${eoa}/assets$`));
    expect(body._links.wallet.href).toMatch(new RegExp(`/v0/wallets/${eoa}$`));
  });

  it("answers an empty list for a wallet without movements", async () => {
    const { jwt, eoa } = await userWithWallets();
    const body = await (await platform.api(`/v0/wallets/${eoa}/assets`, { jwt })).json();
    expect(body).toMatchObject({ wallet_id: eoa, assets: [] });
  });

  it("answers 404 WAL-404-001 for another user's wallet, and 401 without a credential", async () => {
    const owner = await userWithWallets();
    await deposit(owner.jwt, owner.eoa, "ETH", "1");
    const other = await userWithWallets();
    const response = await platform.api(`/v0/wallets/${owner.eoa}/assets`, { jwt: other.jwt });
    expect(response.status).toBe(404);
    expect((await response.json()).error_code).toBe("WAL-404-001");
    const anonymous = await platform.api(`/v0/wallets/${owner.eoa}/assets`);
    expect(anonymous.status).toBe(401);
  });

  it("is readable with a read PAT", async () => {
    const { jwt, eoa } = await userWithWallets();
    await deposit(jwt, eoa, "ETH", "0.5");
    const token = await (await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt, json: { name: "reader", scopes: ["read"] } })).json();
    const response = await platform.api(`/v0/wallets/${eoa}/assets`, { pat: token.token });
    expect(response.status).toBe(200);
    expect((await response.json()).assets).toEqual([expect.objectContaining({ balance: "500000000000000000", value_usd: "1500" })]);
  });
});

describe("GET /v0/accounts", () => {
  it("lists every wallet as a crypto_wallet account with its balances and exact totals", async () => {
    const { jwt, eoa, wallets } = await userWithWallets();
    await deposit(jwt, eoa, "ETH", "0.1");
    await deposit(jwt, eoa, "USDC", "25.5");
    await deposit(jwt, eoa, "DAI", "0.333333333333333333");

    const response = await platform.api("/v0/accounts", { jwt });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.items.map((a: { source_id: string }) => a.source_id)).toEqual(wallets.map((w) => String(w.id)).sort((a, b) => Number(a) - Number(b)));
    const account = body.items.find((a: { source_id: string }) => a.source_id === String(eoa));
    expect(account).toMatchObject({ source: "crypto_wallet", chain_id: 8453, address: wallets.find((w) => w.id === eoa)!.address });
    expect(account.balances.map((b: { asset: { symbol: string }; balance: string; value_usd: string }) => [b.asset.symbol, b.balance, b.value_usd])).toEqual([
      ["DAI", "333333333333333333", "0.333333333333333333"],
      ["ETH", "100000000000000000", "300"],
      ["USDC", "25500000", "25.5"],
    ]);
    // 300 + 25.5 + 0.333333333333333333, not a float's 325.8333333333333
    expect(account.total_value_usd).toBe("325.833333333333333333");
    const others = body.items.filter((a: { source_id: string }) => a.source_id !== String(eoa));
    for (const other of others) expect(other).toMatchObject({ balances: [], total_value_usd: "0" });
    expect(body.total_value_usd).toBe("325.833333333333333333");
    expect(body._links.self.href).toMatch(/\/v0\/accounts$/);
  });

  it("shows only the caller's own accounts, and 401 without a credential", async () => {
    const owner = await userWithWallets();
    await deposit(owner.jwt, owner.eoa, "ETH", "2");
    const other = await userWithWallets();
    const body = await (await platform.api("/v0/accounts", { jwt: other.jwt })).json();
    expect(body.items.map((a: { source_id: string }) => a.source_id)).not.toContain(String(owner.eoa));
    expect(body.total_value_usd).toBe("0");
    expect((await platform.api("/v0/accounts")).status).toBe(401);
  });

  it("answers a user, their wallets' assets and accounts in one GraphQL request", async () => {
    const { jwt, eoa } = await userWithWallets();
    await deposit(jwt, eoa, "USDC", "10");
    const response = await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": jwt },
      body: JSON.stringify({ query: "{ me { id wallets { id assets { asset { symbol } balance value_usd } } accounts { total_value_usd } } }" }),
    });
    const { data, errors } = await response.json();
    expect(errors).toBeUndefined();
    expect(data.me.wallets.find((w: { id: number }) => w.id === eoa).assets).toEqual([{ asset: { symbol: "USDC" }, balance: "10000000", value_usd: "10" }]);
    expect(data.me.accounts.total_value_usd).toBe("10");
  });
});
