import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { enableStrategy, finishedTask, problemSummary as problem, runStrategy } from "../../support/agent-tasks.ts";
import { approvedUser, userWithWallet } from "../../support/finance.ts";
import { agentToken, expectCredentialCases, expectEachProblem, type RouteCall } from "../../support/route-cases.ts";
import { sumDecimals as sumOf } from "../../../lib/decimal.ts";

// Issue 13, first part: the strategy catalogue, user strategies (spec 3.6) and their runs as
// agent tasks (spec 3.5): round-up savings moving money through the ledger (an alert's notification
// is in user/notification.test.ts, the agent-task routes' checks in agent-tasks/agent-task.test.ts).
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());


const enable = (jwt: string, strategy_id: string, parameters: Record<string, unknown>) => enableStrategy(platform, jwt, strategy_id, parameters);
const patch = (jwt: string, id: string, json: Record<string, unknown>) => platform.api(`/v0/user/me/strategies/${id}`, { method: "PATCH", jwt, json });
const deposit = (jwt: string, wallet_id: number, amount: string) => platform.api("/v0/sandbox/deposits", { method: "POST", jwt, json: { wallet_id, asset: "USDC", amount } });

const run = (jwt: string, user_strategy_id: string) => runStrategy(platform, jwt, user_strategy_id);
const finished = (jwt: string, id: string) => finishedTask(platform, jwt, id);

describe("the strategy catalogue", () => {
  it("lists the five seeded strategies with their parameter schemas, by category, and 404s an unknown one", async () => {
    const { jwt } = await platform.createUser();
    const all = await (await platform.api("/v0/strategies", { jwt })).json();
    expect(all.items.map((s: { id: string }) => s.id).sort()).toEqual(["stg_balance_sweep", "stg_low_balance_alert", "stg_recurring_buy", "stg_round_up", "stg_spending_cap_alert"]);
    const alerts = await (await platform.api("/v0/strategies?category=alerts", { jwt })).json();
    expect(alerts.items.map((s: { id: string }) => s.id).sort()).toEqual(["stg_low_balance_alert", "stg_spending_cap_alert"]);
    const roundUp = await (await platform.api("/v0/strategies/stg_round_up", { jwt })).json();
    expect(roundUp).toMatchObject({ category: "savings", parameters_schema: { type: "object", required: ["savings_wallet_id"] } });
    expect(await problem(await platform.api("/v0/strategies/stg_nothing", { jwt }))).toMatchObject({ status: 404, code: "STR-404-001" });
    expect((await platform.api("/v0/strategies?category=gambling", { jwt })).status).toBe(422);
  });
});

describe("user strategies", () => {
  it("enables with checked parameters (defaults filled in), names each failing parameter, and refuses another user's wallet", async () => {
    const user = await userWithWallet(platform);
    const other = await userWithWallet(platform);
    const response = await enable(user.jwt, "stg_round_up", { savings_wallet_id: user.wallet_id });
    expect(response.status).toBe(201);
    const made = await response.json();
    expect(made).toMatchObject({ status: "enabled", parameters: { savings_wallet_id: user.wallet_id, round_to: 1, multiplier: 1 }, strategy: { id: "stg_round_up", category: "savings" }, consecutive_failures: 0 });
    expect(made.status_history).toEqual([{ from: null, to: "enabled", cause: "user", changed_at: expect.any(Number) }]);

    const bad = await problem(await enable(user.jwt, "stg_low_balance_alert", { wallet_id: user.wallet_id, asset: "USDC", threshold: "-5", extra: true }));
    expect(bad.status).toBe(422);
    expect(bad.loc).toEqual(expect.arrayContaining(["body.parameters.threshold"]));
    expect((await problem(await enable(user.jwt, "stg_round_up", { round_to: 3 }))).loc).toEqual(expect.arrayContaining(["body.parameters.round_to"]));
    expect(await problem(await enable(user.jwt, "stg_round_up", { savings_wallet_id: other.wallet_id }))).toMatchObject({ status: 404, code: "WAL-404-001" });
    expect(await problem(await enable(user.jwt, "stg_nothing", {}))).toMatchObject({ status: 404, code: "STR-404-001" });
    expect((await (await platform.api("/v0/user/me/strategies", { jwt: user.jwt })).json()).items).toHaveLength(1);
  });

  it("moves enabled ⇄ disabled as the user asks and refuses every other move with 409 STR-409-001, changing nothing", async () => {
    const user = await userWithWallet(platform);
    const { id } = await (await enable(user.jwt, "stg_low_balance_alert", { wallet_id: user.wallet_id, asset: "USDC", threshold: "50" })).json();
    expect((await (await patch(user.jwt, id, { status: "disabled" })).json()).status).toBe("disabled");
    expect(await problem(await patch(user.jwt, id, { status: "disabled" }))).toMatchObject({ status: 409, code: "STR-409-001" });
    // a refused status leaves new parameters unwritten too
    expect(await problem(await patch(user.jwt, id, { parameters: { wallet_id: user.wallet_id, asset: "USDC", threshold: "99" }, status: "disabled" }))).toMatchObject({ status: 409 });
    expect((await (await platform.api(`/v0/user/me/strategies/${id}`, { jwt: user.jwt })).json()).parameters.threshold).toBe("50");
    expect((await patch(user.jwt, id, { status: "error" })).status).toBe(422);
    const enabled = await (await patch(user.jwt, id, { status: "enabled", parameters: { wallet_id: user.wallet_id, asset: "USDC", threshold: "75" } })).json();
    expect(enabled).toMatchObject({ status: "enabled", parameters: { threshold: "75" } });
    expect(enabled.status_history.map((h: { to: string }) => h.to)).toEqual(["enabled", "disabled", "enabled"]);
    expect((await (await platform.api("/v0/user/me/strategies?status=disabled", { jwt: user.jwt })).json()).items).toEqual([]);
  });

  it("answers 404 STR-404-002 for another user's strategy, to read, change, delete or run", async () => {
    const owner = await userWithWallet(platform);
    const stranger = await userWithWallet(platform);
    const { id } = await (await enable(owner.jwt, "stg_low_balance_alert", { wallet_id: owner.wallet_id, asset: "USDC", threshold: "50" })).json();
    for (const response of [
      await platform.api(`/v0/user/me/strategies/${id}`, { jwt: stranger.jwt }),
      await patch(stranger.jwt, id, { status: "disabled" }),
      await platform.api(`/v0/user/me/strategies/${id}`, { method: "DELETE", jwt: stranger.jwt }),
      await platform.api("/v0/agent-tasks", { method: "POST", jwt: stranger.jwt, json: { kind: "strategy_run", input: { user_strategy_id: id } } }),
    ])
      expect(await problem(response)).toMatchObject({ status: 404, code: "STR-404-002" });
    expect((await platform.api(`/v0/user/me/strategies/${id}`, { method: "DELETE", jwt: owner.jwt })).status).toBe(200);
    expect((await platform.api(`/v0/user/me/strategies/${id}`, { jwt: owner.jwt })).status).toBe(404);
  });

  it("lets an agent token with write:strategies enable and run strategies; read:transactions only reads them", async () => {
    const user = await userWithWallet(platform);
    const [writer, reader] = [await agentToken(platform, user.jwt, ["write:strategies"]), await agentToken(platform, user.jwt, ["read:transactions"])];
    const asAgent = (agent: string, path: string, json?: unknown) => platform.api(path, { method: json ? "POST" : "GET", agent, ...(json !== undefined && { json }) });
    const body = { strategy_id: "stg_low_balance_alert", parameters: { wallet_id: user.wallet_id, asset: "USDC", threshold: "10" } };
    expect(await problem(await asAgent(reader, "/v0/user/me/strategies", body))).toMatchObject({ status: 403, code: "AGT-403-001" });
    const made = await asAgent(writer, "/v0/user/me/strategies", body);
    expect(made.status).toBe(201);
    const { id } = await made.json();
    expect((await asAgent(writer, "/v0/agent-tasks", { kind: "strategy_run", input: { user_strategy_id: id } })).status).toBe(201);
    expect((await (await asAgent(reader, "/v0/user/me/strategies")).json()).items.map((s: { id: string }) => s.id)).toEqual([id]);
  });
});

describe("strategies: security", () => {
  it("answers 401 without a credential; a read-only personal access token and an agent token holding read:transactions read, but neither enables, changes nor deletes (403 USR-403-001, AGT-403-001)", async () => {
    const user = await userWithWallet(platform);
    const { id } = await (await enable(user.jwt, "stg_low_balance_alert", { wallet_id: user.wallet_id, asset: "USDC", threshold: "50" })).json();
    const reads: RouteCall[] = [{ path: "/v0/strategies" }, { path: "/v0/strategies/stg_round_up" }, { path: "/v0/user/me/strategies" }, { path: `/v0/user/me/strategies/${id}` }];
    const writes: RouteCall[] = [
      { method: "POST", path: "/v0/user/me/strategies", json: { strategy_id: "stg_low_balance_alert", parameters: { wallet_id: user.wallet_id, asset: "USDC", threshold: "5" } } },
      { method: "PATCH", path: `/v0/user/me/strategies/${id}`, json: { status: "disabled" } },
      { method: "DELETE", path: `/v0/user/me/strategies/${id}` },
    ];
    const { reader } = await expectCredentialCases(platform, user.jwt, { reads, writes, agentScope: "read:transactions" });
    await expectEachProblem(platform, writes, { agent: reader }, { status: 403, code: "AGT-403-001" });
  });

  it("answers 403 AGT-403-001 to an agent token without read:transactions, and 403 AGT-403-003 to one restricted to wallets", async () => {
    const user = await userWithWallet(platform);
    const { id } = await (await enable(user.jwt, "stg_low_balance_alert", { wallet_id: user.wallet_id, asset: "USDC", threshold: "50" })).json();
    const reads: RouteCall[] = [{ path: "/v0/strategies" }, { path: "/v0/strategies/stg_round_up" }, { path: "/v0/user/me/strategies" }, { path: `/v0/user/me/strategies/${id}` }];
    await expectEachProblem(platform, reads, { agent: await agentToken(platform, user.jwt, ["read:balances", "write:transfers", "write:strategies"]) }, { status: 403, code: "AGT-403-001" });
    await expectEachProblem(platform, reads, { agent: await agentToken(platform, user.jwt, ["read:transactions", "write:strategies"], [user.wallet_id]) }, { status: 403, code: "AGT-403-003" });
  });
});

describe("strategy runs as agent tasks", () => {
  it("rounds card purchases up into savings once: the runs the purchases start move it, a later run finds nothing new", async () => {
    const user = await approvedUser(platform);
    const wallets = (await (await platform.api("/v0/wallets", { jwt: user.jwt })).json()).items as { id: number; type: string; chain_id: number }[];
    const savings = wallets.find((w) => w.type === "Safe" && w.chain_id === 8453)!;
    expect((await deposit(user.jwt, user.wallet_id, "100")).status).toBe(201);
    const { id: ust } = await (await enable(user.jwt, "stg_round_up", { savings_wallet_id: savings.id })).json();
    const card = await (await platform.api("/v0/cards", { method: "POST", jwt: user.jwt, json: { type: "virtual", funding_source: { type: "crypto_wallet", id: String(user.wallet_id) } } })).json();
    for (const amount of ["12.30", "4.99", "7"])
      expect((await platform.api(`/v0/sandbox/cards/${card.id}/authorizations`, { method: "POST", jwt: user.jwt, json: { amount, currency: "USD", merchant: { name: "Corner Cafe", mcc: "5814" } } })).status).toBe(201);

    const savedAmounts = async () => (await (await platform.api(`/v0/transactions?type=transfer&wallet_id=${savings.id}`, { jwt: user.jwt })).json()).items.map((t: { amount: string }) => t.amount) as string[];
    // the runs the purchases start have read all three (the whole "7" rounds up to nothing, so the
    // saved sum alone cannot tell whether its run is still to come)
    const purchasesRead = async () => {
      const tasks = (await (await platform.api("/v0/agent-tasks?limit=100", { jwt: user.jwt })).json()).items as { status: string; output: { purchases?: number } | null }[];
      return tasks.every((t) => t.status === "completed") ? tasks.reduce((n, t) => n + (t.output?.purchases ?? 0), 0) : -1;
    };
    for (let i = 0; i < 200 && (sumOf(await savedAmounts()) !== "0.71" || (await purchasesRead()) !== 3); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const transfers = (await (await platform.api(`/v0/transactions?type=transfer&wallet_id=${savings.id}`, { jwt: user.jwt })).json()).items;
    expect(transfers.every((t: { direction: string; status: string; description: string }) => t.direction === "in" && t.status === "completed" && t.description.startsWith("Round-up savings"))).toBe(true);
    expect(sumOf(transfers.map((t: { amount: string }) => t.amount))).toBe("0.71");

    const again = await run(user.jwt, ust);
    expect(again).toMatchObject({ status: "completed", attempts: 1, output: { strategy_id: "stg_round_up", purchases: 0, moved: [] } });
    expect(again.status_history.map((h: { to: string }) => h.to)).toEqual(["queued", "next", "running", "completed"]);
    expect(sumOf(await savedAmounts())).toBe("0.71");
  });

  it("splits the purchases between runs by their scheduled times, never rounding one up twice, whichever runs first", async () => {
    const user = await approvedUser(platform);
    const savings = ((await (await platform.api("/v0/wallets", { jwt: user.jwt })).json()).items as { id: number; type: string }[]).find((w) => w.type === "Safe")!;
    expect((await deposit(user.jwt, user.wallet_id, "100")).status).toBe(201);
    const { id: ust } = await (await enable(user.jwt, "stg_round_up", { savings_wallet_id: savings.id })).json();
    const card = await (await platform.api("/v0/cards", { method: "POST", jwt: user.jwt, json: { type: "virtual", funding_source: { type: "crypto_wallet", id: String(user.wallet_id) } } })).json();
    const purchase = (amount: string) => platform.api(`/v0/sandbox/cards/${card.id}/authorizations`, { method: "POST", jwt: user.jwt, json: { amount, currency: "USD", merchant: { name: "Kiosk", mcc: "5994" } } });
    const queue = async (scheduled_at?: number) => (await (await platform.api("/v0/agent-tasks", { method: "POST", jwt: user.jwt, json: { kind: "strategy_run", input: { user_strategy_id: ust }, ...(scheduled_at && { scheduled_at }) } })).json()).id as string;
    // besides the runs each purchase starts itself (the ledger's events): one made first but scheduled last, one now
    expect((await purchase("1.20")).status).toBe(201);
    const later = await queue(Date.now() + 1500);
    expect((await purchase("2.40")).status).toBe(201);
    await queue();
    expect((await purchase("3.90")).status).toBe(201);
    await finished(user.jwt, later);
    const all = async () => (await (await platform.api("/v0/agent-tasks?limit=100", { jwt: user.jwt })).json()).items as { status: string; output: { moved?: { amount: string }[] } | null }[];
    const runs = await (async () => {
      for (let i = 0; i < 200; i++) {
        const items = await all();
        if (items.length >= 5 && items.every((t) => t.status === "completed")) return items;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error("runs did not finish");
    })();
    const moved = runs.flatMap((t) => t.output?.moved ?? []).map((m) => m.amount);
    const saved = (await (await platform.api(`/v0/transactions?type=transfer&wallet_id=${savings.id}`, { jwt: user.jwt })).json()).items.map((t: { amount: string }) => t.amount);
    // 0.80 + 0.60 + 0.10, each once, however the runs split them
    expect(sumOf(moved)).toBe("1.5");
    expect(sumOf(saved)).toBe("1.5");
  });

  it("fails a run that cannot work, and the third failure in a row puts the strategy in error until the user enables it again", async () => {
    const user = await userWithWallet(platform);
    const { id } = await (await enable(user.jwt, "stg_recurring_buy", { source_wallet_id: user.wallet_id, asset: "NOTACOIN", amount: "10", frequency: "weekly" })).json();
    // only these runs: the clock's weekly run is moved out of the way
    await (platform.subgraphs.agents as any).services.db.userStrategy.update({ where: { id }, data: { next_run_at: null } });
    for (let i = 1; i <= 3; i++) {
      const task = await run(user.jwt, id);
      expect(task).toMatchObject({ status: "failed", error: expect.stringContaining("NOTACOIN") });
    }
    const broken = await (await platform.api(`/v0/user/me/strategies/${id}`, { jwt: user.jwt })).json();
    expect(broken).toMatchObject({ status: "error", consecutive_failures: 3, last_error: expect.stringContaining("NOTACOIN") });
    expect(broken.status_history.at(-1)).toMatchObject({ from: "enabled", to: "error", cause: "run_failures" });
    // an error strategy does not run
    expect((await run(user.jwt, id)).error).toContain("error");
    const fixed = await (await patch(user.jwt, id, { status: "enabled", parameters: { source_wallet_id: user.wallet_id, asset: "USDC", pay_asset: "USDC", amount: "10", frequency: "weekly" } })).json();
    expect(fixed).toMatchObject({ status: "enabled", consecutive_failures: 0, last_error: null });
  });
});
