import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkSandboxBank, sandboxDeposit, userWithAllWallets } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { agentToken, readOnlyPat, statusAndCode } from "../../support/route-cases.ts";

// GET /v0/accounts (issue 9): every wallet of the caller as a crypto_wallet account, and each linked
// bank account at the bank's reported balance, with exact totals; only the caller's own.

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

const userWithWallets = () => userWithAllWallets(platform);
const deposit = (jwt: string, wallet_id: number, asset: string, amount: string) => sandboxDeposit(platform, jwt, wallet_id, asset, amount);

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

describe("bank accounts in GET /v0/accounts", () => {
  it("lists each linked bank account after the wallets with its currency at the reported balance, leaving unlinked ones out", async () => {
    const { jwt } = await platform.createUser();
    const [checking, savings] = await linkSandboxBank(platform, jwt);
    const [giro] = await linkSandboxBank(platform, jwt, "ins_sandbox_euro");
    expect((await platform.api(`/v0/bank-accounts/${savings!.id}`, { method: "DELETE", jwt })).status).toBe(200);

    const accounts = await (await platform.api("/v0/accounts", { jwt })).json();
    const sources = accounts.items.map((item: { source: string }) => item.source);
    expect(sources.indexOf("bank_account")).toBe(sources.lastIndexOf("crypto_wallet") + 1);
    const banks = accounts.items.filter((item: { source: string }) => item.source === "bank_account");
    expect(banks).toEqual([
      {
        source: "bank_account",
        source_id: checking!.id,
        name: "Everyday Checking",
        chain_id: null,
        address: null,
        balances: [{ asset: expect.objectContaining({ symbol: "USD", asset_type: "fiat", decimals: 2 }), balance: "125000", value_usd: "1250" }],
        total_value_usd: "1250",
        card: null,
      },
      // EUR at the default 1.08 USD
      { source: "bank_account", source_id: giro!.id, name: "Girokonto", chain_id: null, address: null, balances: [expect.objectContaining({ balance: "84050", value_usd: "907.74" })], total_value_usd: "907.74", card: null },
    ]);
    // the new user's wallets hold nothing: the total is the banks'
    expect(accounts.total_value_usd).toBe("2157.74");
    expect(accounts._links.bank_accounts.href).toContain("/v0/bank-accounts");
  });
});

describe("GET /v0/accounts: security", () => {
  it("answers 404 USR-404-001 to a subject with no user", async () => {
    const unregistered = await platform.issuer.sign({ sub: "sub-never-registered" });
    expect(await statusAndCode(await platform.api("/v0/accounts", { jwt: unregistered }))).toEqual({ status: 404, code: "USR-404-001" });
  });

  it("reads with a read-only personal access token and an agent token holding read:balances, not one without it (403 AGT-403-001) nor one restricted to wallets (403 AGT-403-003)", async () => {
    const { jwt, eoa } = await userWithWallets();
    expect((await platform.api("/v0/accounts", { pat: await readOnlyPat(platform, jwt) })).status).toBe(200);
    expect((await platform.api("/v0/accounts", { agent: await agentToken(platform, jwt, ["read:balances"]) })).status).toBe(200);
    expect(await statusAndCode(await platform.api("/v0/accounts", { agent: await agentToken(platform, jwt, ["read:transactions", "write:strategies"]) }))).toEqual({ status: 403, code: "AGT-403-001" });
    expect(await statusAndCode(await platform.api("/v0/accounts", { agent: await agentToken(platform, jwt, ["read:balances"], [eoa]) }))).toEqual({ status: 403, code: "AGT-403-003" });
  });
});
