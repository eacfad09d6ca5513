import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { DEFAULT_ASSET_PRICES } from "../../../lib/price-config.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { agentToken, expectEachProblem, readOnlyPat, type RouteCall } from "../../support/route-cases.ts";

// Issue 9, the asset catalogue: GET /v0/assets (filters), GET /v0/assets/{asset_id}, the seeded
// catalogue's real contract addresses and the static prices.

interface Asset {
  id: string;
  asset_type: string;
  symbol: string;
  decimals: number;
  contract_addresses: { chain_id: number; address: string | null }[];
  price: { value_usd: string; timestamp: number; stale: boolean; source: string } | null;
}

let platform: TestPlatform;
let jwt: string;

async function list(query = ""): Promise<{ status: number; body: any }> {
  const response = await platform.api(`/v0/assets${query}`, { jwt });
  return { status: response.status, body: await response.json() };
}

const symbols = (items: Asset[]) => items.map((asset) => asset.symbol);
const addressOn = (asset: Asset, chainId: number) => asset.contract_addresses.find((c) => c.chain_id === chainId)?.address;

beforeAll(async () => {
  platform = await startTestPlatform({ ASSET_PRICES: JSON.stringify({ ETH: "3150.25" }) });
  ({ jwt } = await platform.createUser());
});
afterAll(() => platform?.stop());

describe("GET /v0/assets", () => {
  it("lists the seeded catalogue, crypto then fiat, each with a price from the static source", async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(symbols(body.items)).toEqual(["DAI", "ETH", "EURC", "USDC", "USDT", "WBTC", "WETH", "EUR", "GBP", "USD"]);
    expect(body._links.self.href).toMatch(/\/v0\/assets$/);
    const eth = body.items.find((asset: Asset) => asset.symbol === "ETH");
    expect(eth).toMatchObject({ id: "ast_eth", asset_type: "crypto", name: "Ether", decimals: 18, price: { value_usd: "3150.25", stale: false, source: "static" } });
    expect(Math.abs(eth.price.timestamp - Date.now())).toBeLessThan(60_000);
    const usd = body.items.find((asset: Asset) => asset.symbol === "USD");
    expect(usd).toMatchObject({ id: "ast_usd", asset_type: "fiat", decimals: 2, contract_addresses: [], price: { value_usd: DEFAULT_ASSET_PRICES.USD } });
  });

  it("carries the issuers' real contract addresses, EIP-55, and ETH as the native coin", async () => {
    const { body } = await list();
    const bySymbol = Object.fromEntries(body.items.map((asset: Asset) => [asset.symbol, asset])) as Record<string, Asset>;
    expect(addressOn(bySymbol.USDC!, 1)).toBe("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48");
    expect(addressOn(bySymbol.USDC!, 8453)).toBe("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
    expect(addressOn(bySymbol.USDT!, 1)).toBe("0xdAC17F958D2ee523a2206206994597C13D831ec7");
    expect(addressOn(bySymbol.WETH!, 8453)).toBe("0x4200000000000000000000000000000000000006");
    expect(bySymbol.ETH!.contract_addresses).toContainEqual({ chain_id: 8453, address: null });
    for (const asset of body.items as Asset[]) {
      const chains = asset.contract_addresses.map((c) => c.chain_id);
      expect(chains).toEqual([...chains].sort((a, b) => a - b));
      for (const { address } of asset.contract_addresses) if (address !== null) expect(getAddress(address)).toBe(address);
    }
  });

  it("filters by asset_type, by chain (contract or native coin there) and by symbol in any case, combined with AND", async () => {
    expect(symbols((await list("?asset_type=fiat")).body.items)).toEqual(["EUR", "GBP", "USD"]);
    expect(symbols((await list("?chain_id=8453")).body.items)).toEqual(["DAI", "ETH", "EURC", "USDC", "WETH"]);
    expect(symbols((await list("?chain_id=84532&asset_type=crypto")).body.items)).toEqual(["ETH", "EURC", "USDC", "WETH"]);
    expect(symbols((await list("?symbol=uSdC")).body.items)).toEqual(["USDC"]);
    expect(symbols((await list("?symbol=usdc&chain_id=42161")).body.items)).toEqual(["USDC"]);
    expect((await list("?symbol=usdc&asset_type=fiat")).body.items).toEqual([]);
    expect((await list("?chain_id=999999")).body.items).toEqual([]);
  });

  it("refuses chain_id with asset_type=fiat, and unknown values, with validation items", async () => {
    const combined = await list("?asset_type=fiat&chain_id=1");
    expect(combined.status).toBe(422);
    expect(combined.body.error_code).toBe("GEN-422-001");
    expect(combined.body.detail[0].loc).toEqual(["query", "chain_id"]);
    const type = await list("?asset_type=stock");
    expect(type.status).toBe(422);
    expect(type.body.detail[0].loc).toEqual(["query", "asset_type"]);
    expect((await list("?chain_id=zero")).status).toBe(422);
  });

  it("needs a credential", async () => {
    const response = await platform.api("/v0/assets");
    expect(response.status).toBe(401);
    expect((await response.json()).error_code).toBe("USR-401-001");
  });
});

describe("GET /v0/assets/{asset_id}", () => {
  it("reads one asset by its stable id, with links", async () => {
    const response = await platform.api("/v0/assets/ast_usdc", { jwt });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ id: "ast_usdc", symbol: "USDC", decimals: 6, price: { value_usd: "1.00", source: "static", stale: false } });
    expect(addressOn(body, 84532)).toBe("0x036CbD53842c5426634e7929541eC2318f3dCF7e");
    expect(body._links.self.href).toMatch(/\/v0\/assets\/ast_usdc$/);
    expect(body._links.list.href).toMatch(/\/v0\/assets$/);
  });

  it("answers timestamps as ISO 8601 on request", async () => {
    const body = await (await platform.api("/v0/assets/ast_eth", { jwt, headers: { "x-timestamp-format": "iso8601" } })).json();
    expect(body.price.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it("an id not in the catalogue: 404 AST-404-001", async () => {
    const response = await platform.api("/v0/assets/ast_doge", { jwt });
    expect(response.status).toBe(404);
    expect((await response.json()).error_code).toBe("AST-404-001");
  });
});

describe("GraphQL", () => {
  it("serves the same catalogue through /graphql", async () => {
    const query = `{ assets(symbol: "eurc", chain_id: 8453) { id contract_addresses { chain_id address } price { value_usd stale } } }`;
    const response = await fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt }, body: JSON.stringify({ query }) });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    expect(body.data.assets).toEqual([
      {
        id: "ast_eurc",
        contract_addresses: [
          { chain_id: 1, address: "0x1aBaEA1f7C830bD89Acc67eC4af516284b1bC33c" },
          { chain_id: 8453, address: "0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42" },
          { chain_id: 84532, address: "0x808456652fdb597867f38412077A9182bf77359F" },
          { chain_id: 11155111, address: "0x08210F9170F89Ab7658F0B5E3fF39b0E03C594D4" },
        ],
        price: { value_usd: "1.08", stale: false },
      },
    ]);
  });
});

describe("the catalogue: security", () => {
  it("answers 401 on both routes without a credential; a read-only personal access token and an agent token holding read:balances read it, one without read:balances does not (403 AGT-403-001)", async () => {
    const [first] = (await list()).body.items as Asset[];
    const reads: RouteCall[] = [{ path: "/v0/assets" }, { path: `/v0/assets/${first!.id}` }];
    await expectEachProblem(platform, reads, {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, jwt);
    const reader = await agentToken(platform, jwt, ["read:balances"]);
    for (const { path } of reads) {
      expect((await platform.api(path, { pat })).status, path).toBe(200);
      expect((await platform.api(path, { agent: reader })).status, path).toBe(200);
    }
    await expectEachProblem(platform, reads, { agent: await agentToken(platform, jwt, ["read:transactions", "write:transfers", "write:strategies"]) }, { status: 403, code: "AGT-403-001" });
  });
});
