import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { expectEachProblem, readOnlyPat, statusAndCode, type RouteCall } from "../../support/route-cases.ts";

// Issue 11, chat: sessions and messages of spec 2.10's types; the built-in assistant answers from
// the ledger by calling AgentTool operations with the user's own credential, every step stored.
let platform: TestPlatform;
let user: Awaited<ReturnType<typeof userWithWallet>>;

beforeAll(async () => {
  platform = await startTestPlatform();
  user = await userWithWallet(platform);
  const deposit = await platform.api("/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet_id, asset: "USDC", amount: "500" } });
  expect(deposit.status).toBe(201);
  // this month: two grocery payments and a restaurant; last month's groceries must not count
  const now = Date.now();
  const monthStart = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), 1);
  const payments = [
    { amount: "42.10", merchant: { name: "Fresh Market", mcc: "5411" }, timestamp: Math.max(monthStart, now - 60_000) },
    { amount: "17.95", merchant: { name: "Corner Grocer", mcc: "5411" }, timestamp: Math.max(monthStart, now - 120_000) },
    { amount: "60.00", merchant: { name: "Trattoria", mcc: "5812" }, timestamp: Math.max(monthStart, now - 180_000) },
    { amount: "99.00", merchant: { name: "Fresh Market", mcc: "5411" }, timestamp: monthStart - 5 * 86_400_000 },
  ];
  for (const payment of payments) {
    const paid = await platform.api("/v0/sandbox/payments", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet_id, asset: "USDC", ...payment } });
    expect(paid.status, await paid.clone().text()).toBe(201);
  }
});
afterAll(() => platform?.stop());

async function newSession(jwt = user.jwt): Promise<string> {
  const response = await platform.api("/v0/chat/sessions", { method: "POST", jwt, json: { title: "Money questions" } });
  expect(response.status).toBe(201);
  return (await response.json()).id;
}

const ask = (session: string, content: string, init: { jwt?: string; headers?: Record<string, string> } = {}) =>
  platform.api(`/v0/chat/sessions/${session}/messages`, { method: "POST", jwt: init.jwt ?? user.jwt, json: { content }, ...(init.headers && { headers: init.headers }) });

describe("chat with the built-in assistant", () => {
  it("answers how much was spent on groceries this month from the ledger, with the tool call and its result in the history", async () => {
    const session = await newSession();
    const response = await ask(session, "How much did I spend on groceries this month?");
    expect(response.status).toBe(201);
    const { items } = await response.json();
    expect(items.map((m: { type: string }) => m.type)).toEqual(["user", "tool_call", "tool_result", "assistant"]);
    const [, call, result, answer] = items;
    expect(call).toMatchObject({ tool_name: "list_transactions", tool_arguments: { direction: "out", category: "groceries", meta: true } });
    expect(result).toMatchObject({ tool_call_id: call.tool_call_id, tool_result: { status: 200, body: { meta: { transaction_count: 2, cashflow: { gross_out: "60.05" } } } } });
    expect(answer.content).toBe("You spent $60.05 on groceries this month (UTC), over 2 transactions.");

    const history = await (await platform.api(`/v0/chat/sessions/${session}/messages`, { jwt: user.jwt })).json();
    expect(history.items).toEqual(items);
  });

  it("answers the biggest expenses of the period, largest first, and budgets, by calling the matching tools", async () => {
    const session = await newSession();
    const biggest = (await (await ask(session, "What were my biggest expenses this month?")).json()).items;
    expect(biggest[1]).toMatchObject({ tool_name: "list_transactions", tool_arguments: { direction: "out", limit: 200 } });
    const lines = biggest.at(-1).content.split("\n");
    expect(lines[0]).toBe("Your biggest expenses this month (UTC):");
    expect(lines.slice(1).map((line: string) => line.replace(/ \(\d{4}-\d{2}-\d{2}\)$/, ""))).toEqual(["1. $60.00: Trattoria", "2. $42.10: Fresh Market", "3. $17.95: Corner Grocer"]);

    const budget = await platform.api("/v0/budgets", { method: "POST", jwt: user.jwt, json: { category: "groceries", amount: "100", period: "monthly" } });
    expect(budget.status).toBe(201);
    const budgets = (await (await ask(session, "How are my budgets doing?")).json()).items;
    expect(budgets[1].tool_name).toBe("list_budgets");
    expect(budgets.at(-1).content).toMatch(/^- groceries: 60\.05 of 100(\.00)? .*spent \(60(\.05)?%\), 39\.95 left this monthly$/);
  });

  it("keeps another user out of a session (404 CHT-404-001), and agent tokens out of chat", async () => {
    const session = await newSession();
    const other = await platform.createUser();
    for (const response of [await ask(session, "hello", { jwt: other.jwt }), await platform.api(`/v0/chat/sessions/${session}/messages`, { jwt: other.jwt }), await platform.api(`/v0/chat/sessions/${session}`, { jwt: other.jwt })]) {
      expect(response.status).toBe(404);
      expect((await response.json()).error_code).toBe("CHT-404-001");
    }
    expect((await (await platform.api(`/v0/chat/sessions/${session}/messages`, { jwt: user.jwt })).json()).items).toEqual([]);
    const token = (await (await platform.api("/v0/agent/tokens", { method: "POST", jwt: user.jwt, json: { name: "x", scopes: ["read:transactions"] } })).json()).token;
    const refused = await fetch(`${platform.urls.platform}/v0/chat/sessions/${session}/messages`, { method: "POST", headers: { "content-type": "application/json", "x-platform-token": token }, body: JSON.stringify({ content: "hi" }) });
    expect({ status: refused.status, code: (await refused.json()).error_code }).toEqual({ status: 403, code: "AGT-403-002" });
  });

  it("refuses an empty or oversized message with 422 and stores nothing", async () => {
    const session = await newSession();
    expect((await ask(session, "")).status).toBe(422);
    expect((await ask(session, "x".repeat(4001))).status).toBe(422);
    expect((await (await platform.api(`/v0/chat/sessions/${session}/messages`, { jwt: user.jwt })).json()).items).toEqual([]);
  });

  it("streams the turn as server-sent events when asked for text/event-stream", async () => {
    const session = await newSession();
    const response = await ask(session, "What are my balances?", { headers: { accept: "text/event-stream" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = (await response.text()).trim().split("\n\n").map((block) => {
      const [event, data] = block.split("\n");
      return { event: event!.replace("event: ", ""), data: JSON.parse(data!.replace("data: ", "")) };
    });
    expect(events.map((e) => (e.event === "message" ? e.data.type : e.event))).toEqual(["user", "tool_call", "tool_result", "assistant", "done"]);
    expect(events[1]!.data.tool_name).toBe("list_accounts");
    expect(events[3]!.data.content).toMatch(/^Your accounts are worth \$\d/);
  });

  it("lists the user's sessions, most recently active first", async () => {
    const first = await newSession();
    const second = await newSession();
    await ask(first, "what are my budgets?");
    const { items } = await (await platform.api("/v0/chat/sessions", { jwt: user.jwt })).json();
    expect(items.map((s: { id: string }) => s.id).slice(0, 2)).toEqual([first, second]);
  });

  it("reads only a session's latest messages, still in order, with chat_messages(last:) on /graphql", async () => {
    const session = await newSession();
    await ask(session, "what are my budgets?");
    await ask(session, "What were my biggest expenses this month?");
    const all = (await (await platform.api(`/v0/chat/sessions/${session}/messages`, { jwt: user.jwt })).json()).items as { id: string }[];
    const latest = async (last: number) => {
      const response = await fetch(platform.urls.graphql, {
        method: "POST",
        headers: { "content-type": "application/json", "x-platform-jwt": user.jwt },
        body: JSON.stringify({ query: "query ($id: ID!, $last: Int) { chat_messages(session_id: $id, last: $last) { id } }", variables: { id: session, last } }),
      });
      return ((await response.json()).data.chat_messages as { id: string }[]).map((m) => m.id);
    };
    expect(await latest(3)).toEqual(all.slice(-3).map((m) => m.id));
    expect(await latest(0)).toEqual(all.slice(-1).map((m) => m.id));
    expect(await latest(5000)).toEqual(all.map((m) => m.id));
  });
});

describe("chat: errors and security", () => {
  it("keeps another user out of a session's actions (404 CHT-404-001), and answers 404 CHT-404-002 to decline an action the session does not hold", async () => {
    const session = await newSession();
    const other = await platform.createUser();
    await expectEachProblem(platform, [{ path: `/v0/chat/sessions/${session}/actions` }, { method: "POST", path: `/v0/chat/sessions/${session}/actions/act_missing/decline` }], { jwt: other.jwt }, { status: 404, code: "CHT-404-001" });
    expect((await platform.api(`/v0/chat/sessions/${session}/actions`, { jwt: user.jwt })).status).toBe(200);
    expect(await statusAndCode(await platform.api(`/v0/chat/sessions/${session}/actions/act_missing/decline`, { method: "POST", jwt: user.jwt }))).toEqual({ status: 404, code: "CHT-404-002" });
  });

  it("answers 401 without a credential, and a read-only personal access token starts no session (403 USR-403-001)", async () => {
    const session = await newSession();
    const calls: RouteCall[] = [
      { path: "/v0/chat/sessions" },
      { method: "POST", path: "/v0/chat/sessions", json: { title: "probe" } },
      { path: `/v0/chat/sessions/${session}` },
      { path: `/v0/chat/sessions/${session}/messages` },
      { path: `/v0/chat/sessions/${session}/actions` },
      { method: "POST", path: `/v0/chat/sessions/${session}/actions/act_missing/decline` },
    ];
    await expectEachProblem(platform, calls, {}, { status: 401, code: "USR-401-001" });
    await expectEachProblem(platform, [calls[1]!], { pat: await readOnlyPat(platform, user.jwt) }, { status: 403, code: "USR-403-001" });
  });
});
