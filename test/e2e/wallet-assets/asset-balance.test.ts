import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxDeposit, userWithAllWallets } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { agentToken, expectEachProblem } from "../../support/route-cases.ts";

// Issue 9, assets and balances: GET /v0/wallets/{wallet_id}/assets over the ledger (BALANCE_SOURCE=ledger, the default), after sandbox deposits; exact values, another
// user's wallet invisible.

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

const userWithWallets = () => userWithAllWallets(platform);
const deposit = (jwt: string, wallet_id: number, asset: string, amount: string) => sandboxDeposit(platform, jwt, wallet_id, asset, amount);

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

describe("GET /v0/wallets/{wallet_id}/assets: agent tokens", () => {
  it("lets an agent token holding read:balances read a wallet's assets, also one restricted to that wallet, and refuses one without read:balances (403 AGT-403-001)", async () => {
    const { jwt, eoa } = await userWithWallets();
    const path = `/v0/wallets/${eoa}/assets`;
    expect((await platform.api(path, { agent: await agentToken(platform, jwt, ["read:balances"]) })).status).toBe(200);
    expect((await platform.api(path, { agent: await agentToken(platform, jwt, ["read:balances"], [eoa]) })).status).toBe(200);
    await expectEachProblem(platform, [{ path }], { agent: await agentToken(platform, jwt, ["read:transactions", "write:transfers", "write:strategies"]) }, { status: 403, code: "AGT-403-001" });
  });
});
