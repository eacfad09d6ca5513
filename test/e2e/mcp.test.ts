import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userWithWallet } from "../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../support/platform.ts";

// Issue 11, MCP: the AgentTool operations as tools, over Streamable HTTP at /mcp and over stdio,
// driven by the SDK's own client; a tool call is the REST request, refusals are tool errors.
let platform: TestPlatform;
let user: Awaited<ReturnType<typeof userWithWallet>>;
const ROOT = join(import.meta.dirname, "..", "..");

beforeAll(async () => {
  platform = await startTestPlatform();
  user = await userWithWallet(platform);
  const deposit = await platform.api("/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet_id, asset: "ETH", amount: "0.75" } });
  expect(deposit.status).toBe(201);
});
afterAll(() => platform?.stop());

async function agentToken(scopes: string[]): Promise<{ id: string; token: string }> {
  const response = await platform.api("/v0/agent/tokens", { method: "POST", jwt: user.jwt, json: { name: "mcp", scopes } });
  expect(response.status).toBe(201);
  return response.json();
}

async function httpClient(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${platform.urls.platform}/mcp`), { requestInit: { headers } }));
  return client;
}

const text = (result: unknown) => JSON.parse((result as { content: { text: string }[] }).content[0]!.text);

describe("MCP over Streamable HTTP at /mcp", () => {
  it("lists each AgentTool operation as a tool with its JSON Schema input, reads marked read-only, and nothing else", async () => {
    const { token } = await agentToken(["read:transactions"]);
    const client = await httpClient({ authorization: `Bearer ${token}` });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["list_transactions", "get_transaction", "list_wallets", "list_wallet_assets", "list_accounts", "list_budgets", "list_insights", "list_cards", "list_assets"]));
    for (const hidden of ["create_agent_token", "get_current_user", "update_wallet", "reveal_card_details", "create_kyc_access_token"]) expect(names).not.toContain(hidden);
    const feed = tools.find((t) => t.name === "list_transactions")!;
    expect(feed.inputSchema.properties).toMatchObject({ limit: { type: "integer" }, meta: expect.any(Object), category: expect.any(Object) });
    expect(feed.description).toContain("read:transactions");
    expect(feed.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === "list_wallet_assets")!.inputSchema.required).toEqual(["wallet_id"]);
    await client.close();
  });

  it("calls the transactions tool with its filters, and the balance tool where the token holds read:balances", async () => {
    const { id, token } = await agentToken(["read:transactions", "read:balances"]);
    const client = await httpClient({ "x-platform-token": token });
    const feed = await client.callTool({ name: "list_transactions", arguments: { limit: 5, meta: true, direction: "in" } });
    expect(feed.isError).toBeFalsy();
    expect(text(feed)).toMatchObject({ items: [{ type: "deposit", amount: "0.75" }], pagination: { limit: 5, total: 1 }, meta: { transaction_count: 1 } });
    expect(feed.structuredContent).toEqual(text(feed));
    const balances = await client.callTool({ name: "list_wallet_assets", arguments: { wallet_id: user.wallet_id } });
    expect(balances.isError).toBeFalsy();
    // balances in base units (wei), valued in USD
    expect(text(balances).assets).toContainEqual(expect.objectContaining({ balance: "750000000000000000", value_usd: "2250" }));
    const uses = (await (await platform.api(`/v0/agent/tokens/${id}/uses`, { jwt: user.jwt })).json()).items;
    expect(uses.map((u: { operation: string; outcome: string }) => [u.operation, u.outcome])).toEqual([
      ["ListWalletAssets", "ok"],
      ["ListTransactions", "ok"],
    ]);
    await client.close();
  });

  it("offers the strategy writes as tools that change things, with their bodies, to a token holding write:strategies", async () => {
    const { token } = await agentToken(["write:strategies", "read:transactions"]);
    const client = await httpClient({ "x-platform-token": token });
    const enable = (await client.listTools()).tools.find((t) => t.name === "enable_user_strategy")!;
    expect(enable.annotations?.readOnlyHint).toBe(false);
    expect(enable.inputSchema.required).toEqual(["strategy_id", "parameters"]);
    const made = await client.callTool({ name: "enable_user_strategy", arguments: { strategy_id: "stg_low_balance_alert", parameters: { wallet_id: user.wallet_id, asset: "ETH", threshold: "0.1" } } });
    expect(made.isError).toBeFalsy();
    expect(text(made)).toMatchObject({ status: "enabled", strategy: { id: "stg_low_balance_alert" } });
    const refused = await client.callTool({ name: "enable_user_strategy", arguments: { strategy_id: "stg_low_balance_alert", parameters: { threshold: "x" } } });
    expect(refused.isError).toBe(true);
    expect(text(refused).status).toBe(422);
    await client.close();
  });

  it("answers a scope refusal, a missing object and a revoked token as tool errors with the problem", async () => {
    const { id, token } = await agentToken(["read:transactions"]);
    const client = await httpClient({ "x-platform-token": token });
    const refused = await client.callTool({ name: "list_wallets", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatchObject({ status: 403, error_code: "AGT-403-001" });
    const missing = await client.callTool({ name: "get_transaction", arguments: { transaction_id: "txn_missing" } });
    expect(text(missing)).toMatchObject({ status: 404, error_code: "TXN-404-001" });
    expect((await platform.api(`/v0/agent/tokens/${id}`, { method: "DELETE", jwt: user.jwt })).status).toBe(200);
    const revoked = await client.callTool({ name: "list_transactions", arguments: {} });
    expect(revoked.isError).toBe(true);
    expect(text(revoked)).toMatchObject({ status: 401, error_code: "USR-401-005" });
    await client.close();
  });

  it("refuses a connection without an agent token with 401", async () => {
    await expect(httpClient({})).rejects.toThrow(/401/);
    const response = await fetch(`${platform.urls.platform}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(response.status).toBe(401);
    expect((await response.json()).error_code).toBe("USR-401-005");
  });
});

describe("MCP over stdio (npm run mcp)", () => {
  it("serves the same tools to a desktop client, calling the platform over HTTP with the token from the environment", async () => {
    const { token } = await agentToken(["read:transactions"]);
    const client = new Client({ name: "desktop", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(ROOT, "dist", "mcp.js")],
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", PLATFORM_URL: platform.urls.platform, PLATFORM_AGENT_TOKEN: token },
        stderr: "pipe",
      }),
    );
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("list_transactions");
    const feed = await client.callTool({ name: "list_transactions", arguments: { limit: 1 } });
    expect(text(feed).items[0]).toMatchObject({ type: "deposit" });
    const refused = await client.callTool({ name: "list_accounts", arguments: {} });
    expect(text(refused)).toMatchObject({ error_code: "AGT-403-001" });
    await client.close();
  }, 60_000);
});
