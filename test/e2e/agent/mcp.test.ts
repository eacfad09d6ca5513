import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 11, MCP: the AgentTool operations as tools, over Streamable HTTP at /mcp and over stdio,
// driven by the SDK's own client; a tool call is the REST request, refusals are tool errors.
// Issue 26: reads are read-only tools for every token; the AgentAction writes are listed only to a
// token whose scopes cover them, annotated; arguments are checked before any request.
let platform: TestPlatform;
let user: Awaited<ReturnType<typeof userWithWallet>>;
const ROOT = join(import.meta.dirname, "..", "..", "..");

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

const WRITES = ["cancel_agent_task", "create_agent_task", "create_user_rule", "delete_user_rule", "delete_user_strategy", "enable_user_strategy", "update_user_rule", "update_user_strategy"];

async function uses(id: string): Promise<string[][]> {
  const items = (await (await platform.api(`/v0/agent/tokens/${id}/uses?limit=50`, { jwt: user.jwt })).json()).items;
  return items.map((u: { operation: string; outcome: string }) => [u.operation, u.outcome]);
}

describe("MCP over Streamable HTTP at /mcp", () => {
  it("lists each AgentTool operation as a read-only tool with its JSON Schema input, and no write to a read-only token", async () => {
    const { token } = await agentToken(["read:transactions", "read:balances"]);
    const client = await httpClient({ authorization: `Bearer ${token}` });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["list_transactions", "get_transaction", "list_wallets", "list_wallet_assets", "list_accounts", "list_budgets", "list_insights", "list_cards", "list_assets"]));
    for (const hidden of ["create_agent_token", "get_current_user", "update_wallet", "reveal_card_details", "create_kyc_access_token", ...WRITES]) expect(names).not.toContain(hidden);
    for (const tool of tools) expect(tool.annotations, tool.name).toEqual({ readOnlyHint: true, openWorldHint: false });
    const feed = tools.find((t) => t.name === "list_transactions")!;
    expect(feed.inputSchema.properties).toMatchObject({ limit: { type: "integer" }, meta: expect.any(Object), category: expect.any(Object) });
    expect(feed.description).toContain("read:transactions");
    expect(tools.find((t) => t.name === "list_wallet_assets")!.inputSchema.required).toEqual(["wallet_id"]);
    await client.close();
  });

  it("lists no write to a token whose write scope covers none of them (write:transfers)", async () => {
    const { token } = await agentToken(["write:transfers", "read:transactions"]);
    const client = await httpClient({ "x-platform-token": token });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("list_transactions");
    for (const write of WRITES) expect(names).not.toContain(write);
    // not listed; called anyway, it is only proposed to the user (issue 26), who confirms it in the platform
    const rules = async () => (await (await platform.api("/v0/user/me/rules", { jwt: user.jwt })).json()).items as { name: string }[];
    const before = (await rules()).length;
    const proposed = await client.callTool({ name: "create_user_rule", arguments: { name: "proposed by mcp", trigger_type: "time_based", trigger: { cron: "0 9 * * *" }, action_type: "notification", action: { title: "x" }, idempotency_key: "k-1" } });
    expect(proposed.isError).toBeFalsy();
    const action = text(proposed);
    expect(action).toMatchObject({ status: "proposed", tool_name: "create_user_rule", method: "POST", path: "/v0/user/me/rules", detail: expect.stringContaining("write:strategies") });
    expect(await rules()).toHaveLength(before);
    const sessions = (await (await platform.api("/v0/chat/sessions", { jwt: user.jwt })).json()).items as { id: string; title: string }[];
    expect(sessions.find((session) => session.id === action.session_id)?.title).toBe("Proposals from agent token mcp");
    // the token cannot confirm its own proposal; the user can, once
    const confirm = (headers: Record<string, string>) => platform.api(`/v0/chat/sessions/${action.session_id}/actions/${action.id}/confirm`, { method: "POST", headers });
    expect((await confirm({ "x-platform-token": token })).status).toBe(403);
    const confirmed = await confirm({ "x-platform-jwt": user.jwt });
    expect(await confirmed.json()).toMatchObject({ status: "completed", result_status: 201 });
    expect((await rules()).filter((rule) => rule.name === "proposed by mcp")).toHaveLength(1);
    expect(client.getInstructions()).toContain("only proposed to the user");
    await client.close();
  });

  it("lists the AgentAction writes to a token holding write:strategies, annotated, each requiring an idempotency_key it sends as the Idempotency-Key", async () => {
    const { token } = await agentToken(["write:strategies", "read:transactions"]);
    const client = await httpClient({ "x-platform-token": token });
    const { tools } = await client.listTools();
    const writes = tools.filter((t) => t.annotations?.readOnlyHint === false);
    expect(writes.map((t) => t.name).sort()).toEqual(WRITES);
    for (const tool of writes) {
      expect(tool.annotations, tool.name).toEqual({ readOnlyHint: false, destructiveHint: /^(delete|cancel)_/.test(tool.name), idempotentHint: true, openWorldHint: false });
      expect(tool.inputSchema.required, tool.name).toContain("idempotency_key");
    }
    const enable = tools.find((t) => t.name === "enable_user_strategy")!;
    expect(enable.inputSchema.required).toEqual(["strategy_id", "parameters", "idempotency_key"]);
    const args = { strategy_id: "stg_low_balance_alert", parameters: { wallet_id: user.wallet_id, asset: "ETH", threshold: "0.1" } };
    const keyless = await client.callTool({ name: "enable_user_strategy", arguments: args });
    expect(keyless.isError).toBe(true);
    expect(text(keyless)).toMatchObject({ status: 422, error_code: "GEN-422-001", detail: [{ loc: ["header", "Idempotency-Key"] }] });
    const made = await client.callTool({ name: "enable_user_strategy", arguments: { ...args, idempotency_key: "mcp-enable-1" } });
    expect(made.isError).toBeFalsy();
    expect(text(made)).toMatchObject({ status: "enabled", strategy: { id: "stg_low_balance_alert" } });
    const refused = await client.callTool({ name: "enable_user_strategy", arguments: { strategy_id: "stg_low_balance_alert", parameters: { threshold: "x" }, idempotency_key: "mcp-enable-2" } });
    expect(refused.isError).toBe(true);
    expect(text(refused).status).toBe(422);
    await client.close();
  });

  it("refuses a path parameter that is not one segment (.., %2e%2e, a/b) as invalid arguments, without making any request", async () => {
    const { id, token } = await agentToken(["read:transactions"]);
    const client = await httpClient({ "x-platform-token": token });
    for (const value of ["..", "%2e%2e", "a/b", "%2F", "."]) {
      const refused = await client.callTool({ name: "get_user_strategy", arguments: { user_strategy_id: value } });
      expect(refused.isError, value).toBe(true);
      expect(text(refused), value).toMatchObject({ status: 422, error_code: "GEN-422-001", detail: [{ loc: ["path", "user_strategy_id"] }] });
    }
    // nothing reached the platform: the token was never used (with the check gone, /v0/user/me is asked and recorded)
    expect(await uses(id)).toEqual([]);
    const fine = await client.callTool({ name: "get_user_strategy", arguments: { user_strategy_id: "ust_missing" } });
    expect(text(fine)).toMatchObject({ status: 404, error_code: "STR-404-002" });
    expect(await uses(id)).toEqual([["GetUserStrategy", "STR-404-002"]]);
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

describe("MCP output schemas", () => {
  // Issue 32: every tool has an outputSchema, its route's success response schema; the SDK client
  // checks each call's structuredContent against it (callTool throws on a mismatch, or on a success
  // without structuredContent), and a tool error carries none. Free-form objects are additionalProperties.
  it("gives every listed tool an object outputSchema the SDK client checks its calls against", async () => {
    const { token } = await agentToken(["read:transactions", "read:balances", "write:strategies"]);
    const client = await httpClient({ "x-platform-token": token });
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(30);
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe("object");
    expect(JSON.stringify(tools)).not.toContain("patternProperties");
    const rule = tools.find((t) => t.name === "create_user_rule")!;
    expect(rule.inputSchema.properties!.trigger).toEqual({ type: "object", additionalProperties: {} });
    expect(rule.outputSchema).toMatchObject({ type: "object", properties: { trigger: { type: "object", additionalProperties: {} }, _links: { type: "object", additionalProperties: { $ref: "#/$defs/Link" } } } });

    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      // the REST body, as text and as structuredContent
      expect(result.structuredContent, name).toEqual(text(result));
      return result.structuredContent as Record<string, any>;
    };
    // every read that needs no argument: lists, the account view, the catalogue
    const bare = tools.filter((t) => t.annotations?.readOnlyHint && !t.inputSchema.required?.length);
    expect(bare.map((t) => t.name)).toEqual(expect.arrayContaining(["list_accounts", "list_transactions", "list_wallets", "list_strategies", "list_user_rules"]));
    const answers = new Map<string, Record<string, any>>();
    for (const tool of bare) answers.set(tool.name, await call(tool.name));
    expect(answers.get("list_accounts")).toMatchObject({ _links: expect.any(Object) });
    const [transaction] = answers.get("list_transactions")!.items;
    expect(await call("get_transaction", { transaction_id: transaction.id })).toMatchObject({ id: transaction.id });
    expect(await call("get_wallet", { wallet_id: user.wallet_id })).toMatchObject({ id: user.wallet_id });
    expect(await call("list_wallet_assets", { wallet_id: user.wallet_id })).toMatchObject({ wallet_id: user.wallet_id, assets: [expect.any(Object)] });
    const strategy = answers.get("list_strategies")!.items[0];
    expect(await call("get_strategy", { strategy_id: strategy.id })).toMatchObject({ id: strategy.id });
    // writes: made, read back, deleted
    const made = await call("create_user_rule", { name: "checked output", trigger_type: "time_based", trigger: { cron: "0 9 * * *" }, action_type: "notification", action: { title: "x" }, idempotency_key: "mcp-output-1" });
    expect(await call("get_user_rule", { rule_id: made.id })).toMatchObject({ id: made.id, trigger: { cron: "0 9 * * *" } });
    expect(await call("delete_user_rule", { rule_id: made.id, idempotency_key: "mcp-output-2" })).toMatchObject({ id: made.id });

    // errors are tool errors without structuredContent, which the client does not hold to the schema
    const missing = await client.callTool({ name: "get_transaction", arguments: { transaction_id: "txn_missing" } });
    expect([missing.isError, missing.structuredContent, text(missing).error_code]).toEqual([true, undefined, "TXN-404-001"]);
    const invalid = await client.callTool({ name: "list_agent_tasks", arguments: { status: "bogus" } });
    expect([invalid.isError, invalid.structuredContent, text(invalid).error_code]).toEqual([true, undefined, "GEN-422-001"]);
    await client.close();
  });
});

describe("MCP over stdio (npm run mcp)", () => {
  it("serves the same tools to a desktop client, relaying to the platform's /mcp with the token from the environment", async () => {
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
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("list_transactions");
    for (const write of WRITES) expect(names).not.toContain(write);
    const feed = await client.callTool({ name: "list_transactions", arguments: { limit: 1 } });
    expect(text(feed).items[0]).toMatchObject({ type: "deposit" });
    const refused = await client.callTool({ name: "list_accounts", arguments: {} });
    expect(text(refused)).toMatchObject({ error_code: "AGT-403-001" });
    await client.close();
  }, 60_000);
});
