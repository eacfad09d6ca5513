import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformRoutes } from "../../../rest-adapter/hosts/platform.ts";
import { userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 26: every agent-reachable write (the AgentAction routes) takes an Idempotency-Key with the
// ledger's semantics: the first answer per user and key is stored with the write in one
// transaction; a retry answers it again and writes nothing; the same key with another request is
// 422 TXN-422-001; a refused request is not stored. MCP write tools send their idempotency_key.
let platform: TestPlatform;
let user: Awaited<ReturnType<typeof userWithWallet>>;

beforeAll(async () => {
  platform = await startTestPlatform();
  user = await userWithWallet(platform);
});
afterAll(() => platform?.stop());

type Init = { method?: string; json?: unknown; key?: string; token?: string };
async function call(path: string, init: Init = {}): Promise<{ status: number; body: any }> {
  const headers = { ...(init.key && { "idempotency-key": init.key }), ...(init.token && { "x-platform-token": init.token }) };
  const response = await platform.api(path, { method: init.method, ...(init.token ? {} : { jwt: user.jwt }), headers, ...(init.json !== undefined && { json: init.json }) });
  return { status: response.status, body: response.status === 204 ? null : await response.json() };
}
const listed = async (path: string) => (await call(path)).body.items as { id: string }[];

const RULE = { name: "Big deposits", trigger_type: "transaction_received", trigger: { direction: "in", amount_min: "1000" }, action_type: "notification", action: { title: "Big deposit" } };

describe("Idempotency-Key on the AgentAction routes", () => {
  it("is documented on every AgentAction route (and the routes are all idempotent)", () => {
    const actions = platformRoutes.filter((route) => route.agentAction);
    expect(actions).toHaveLength(8);
    for (const route of actions) expect(route.idempotent, route.operationId).toBe(true);
  });

  it("makes a rule once: the retry answers the same rule, another body with the key is TXN-422-001, a new key makes another", async () => {
    const first = await call("/v0/user/me/rules", { method: "POST", json: RULE, key: "rule-1" });
    expect(first.status).toBe(201);
    const again = await call("/v0/user/me/rules", { method: "POST", json: { ...RULE, action: { title: "Big deposit" } }, key: "rule-1" });
    expect(again).toEqual(first);
    expect((await listed("/v0/user/me/rules")).map((r) => r.id)).toEqual([first.body.id]);
    const other = await call("/v0/user/me/rules", { method: "POST", json: { ...RULE, name: "Other" }, key: "rule-1" });
    expect(other).toMatchObject({ status: 422, body: { error_code: "TXN-422-001" } });
    expect((await call("/v0/user/me/rules", { method: "POST", json: RULE, key: "rule-2" })).status).toBe(201);
    expect(await listed("/v0/user/me/rules")).toHaveLength(2);
  });

  it("answers a retried update and delete as the first did (the delete's retry is not 404), and stores no refusal", async () => {
    const rule = (await call("/v0/user/me/rules", { method: "POST", json: { ...RULE, name: "To change" } })).body;
    const renamed = await call(`/v0/user/me/rules/${rule.id}`, { method: "PATCH", json: { name: "Changed" }, key: "rename-1" });
    expect(renamed).toMatchObject({ status: 200, body: { name: "Changed" } });
    expect((await call(`/v0/user/me/rules/${rule.id}`, { method: "PATCH", json: { name: "Changed again" } })).status).toBe(200);
    expect(await call(`/v0/user/me/rules/${rule.id}`, { method: "PATCH", json: { name: "Changed" }, key: "rename-1" })).toEqual(renamed);
    const deleted = await call(`/v0/user/me/rules/${rule.id}`, { method: "DELETE", key: "delete-1" });
    expect(deleted.status).toBe(200);
    expect(await call(`/v0/user/me/rules/${rule.id}`, { method: "DELETE", key: "delete-1" })).toEqual(deleted);
    expect((await call(`/v0/user/me/rules/${rule.id}`, { method: "DELETE" })).body.error_code).toBe("RUL-404-001");
    // a refusal is not stored: the same key answers afresh once the cause is fixed
    expect((await call("/v0/user/me/rules/rul_missing", { method: "DELETE", key: "delete-2" })).body.error_code).toBe("RUL-404-001");
    expect((await call("/v0/user/me/rules/rul_missing", { method: "DELETE", key: "delete-2" })).body.error_code).toBe("RUL-404-001");
  });

  it("enables a strategy and queues its task once per key, and a retried cancel answers the same refusal until one succeeds", async () => {
    const body = { strategy_id: "stg_low_balance_alert", parameters: { wallet_id: user.wallet_id, asset: "ETH", threshold: "0.1" } };
    const enabled = await call("/v0/user/me/strategies", { method: "POST", json: body, key: "enable-1" });
    expect(enabled.status).toBe(201);
    expect(await call("/v0/user/me/strategies", { method: "POST", json: body, key: "enable-1" })).toEqual(enabled);
    expect(await listed("/v0/user/me/strategies")).toHaveLength(1);
    const disabled = await call(`/v0/user/me/strategies/${enabled.body.id}`, { method: "PATCH", json: { status: "disabled" }, key: "disable-1" });
    expect(disabled).toMatchObject({ status: 200, body: { status: "disabled" } });
    // without the key the same move is refused (disabled → disabled); with it, the first answer
    expect((await call(`/v0/user/me/strategies/${enabled.body.id}`, { method: "PATCH", json: { status: "disabled" } })).body.error_code).toBe("STR-409-001");
    expect(await call(`/v0/user/me/strategies/${enabled.body.id}`, { method: "PATCH", json: { status: "disabled" }, key: "disable-1" })).toEqual(disabled);
    expect((await call(`/v0/user/me/strategies/${enabled.body.id}`, { method: "PATCH", json: { status: "enabled" } })).status).toBe(200);

    const later = Date.now() + 3_600_000;
    const task = { kind: "strategy_run", input: { user_strategy_id: enabled.body.id }, scheduled_at: later };
    const queued = await call("/v0/agent-tasks", { method: "POST", json: task, key: "task-1" });
    expect(queued.status).toBe(201);
    expect(await call("/v0/agent-tasks", { method: "POST", json: task, key: "task-1" })).toEqual(queued);
    expect((await listed("/v0/agent-tasks")).map((t) => t.id)).toEqual([queued.body.id]);
    // a queued task cannot be cancelled (spec 3.5): refused each time, nothing stored for the key
    for (let i = 0; i < 2; i++) expect((await call(`/v0/agent-tasks/${queued.body.id}/cancel`, { method: "POST", key: "cancel-1" })).body.error_code).toBe("TSK-409-001");

    const removed = await call(`/v0/user/me/strategies/${enabled.body.id}`, { method: "DELETE", key: "remove-1" });
    expect(removed.status).toBe(200);
    expect(await call(`/v0/user/me/strategies/${enabled.body.id}`, { method: "DELETE", key: "remove-1" })).toEqual(removed);
  });

  it("keeps keys per user: another user's same key is a new request", async () => {
    const other = await userWithWallet(platform);
    const made = await platform.api("/v0/user/me/rules", { method: "POST", jwt: other.jwt, headers: { "idempotency-key": "rule-1" }, json: { ...RULE, name: "Theirs" } });
    expect(made.status).toBe(201);
    expect((await made.json()).name).toBe("Theirs");
  });

  it("refuses a malformed key with 422 at header.Idempotency-Key", async () => {
    const refused = await call("/v0/user/me/rules", { method: "POST", json: RULE, key: "has space" });
    expect(refused).toMatchObject({ status: 422, body: { error_code: "GEN-422-001", detail: [{ loc: ["header", "Idempotency-Key"] }] } });
  });
});

describe("MCP write tools", () => {
  it("send their idempotency_key as the Idempotency-Key: the retried call makes nothing more", async () => {
    const issued = await platform.api("/v0/agent/tokens", { method: "POST", jwt: user.jwt, json: { name: "mcp", scopes: ["write:strategies", "read:transactions"] } });
    const { token } = await issued.json();
    const client = new Client({ name: "test-agent", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${platform.urls.platform}/mcp`), { requestInit: { headers: { "x-platform-token": token } } }));
    const before = (await listed("/v0/user/me/rules")).length;
    const args = { ...RULE, name: "From MCP", idempotency_key: "mcp-rule-1" };
    const first = await client.callTool({ name: "create_user_rule", arguments: args });
    const again = await client.callTool({ name: "create_user_rule", arguments: args });
    expect(first.isError).toBeFalsy();
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(await listed("/v0/user/me/rules")).toHaveLength(before + 1);
    await client.close();
  });
});
