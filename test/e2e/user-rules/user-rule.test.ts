import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import type { AgentsDb } from "../../../subgraphs/agents/db.ts";
import { scheduleScanner } from "../../../subgraphs/agents/automation/schedule-scanner.ts";
import { createLogger } from "../../../lib/logger.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { approvedUser, userWithWallet } from "../../support/finance.ts";
import { problemSummary as problem } from "../../support/agent-tasks.ts";
import { agentToken, expectCredentialCases, expectEachProblem, type RouteCall } from "../../support/route-cases.ts";
import { RULE_LIMITS } from "../../../lib/contracts/rules.ts";

// Issue 13: automation driven by the ledger's outbox (each event applied once) and by the clock:
// strategies that react to transactions, and user rules with their triggers, actions and firings.
let platform: TestPlatform;
let financeDb: FinanceDb;
let agentsDb: AgentsDb;

beforeAll(async () => {
  platform = await startTestPlatform();
  financeDb = (platform.subgraphs.finance as any).services.db;
  agentsDb = (platform.subgraphs.agents as any).services.db;
});
afterAll(() => platform?.stop());


async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const pay = (jwt: string, wallet_id: number, amount: string) =>
  platform.api("/v0/sandbox/payments", { method: "POST", jwt, json: { wallet_id, asset: "USDC", amount, merchant: { name: "Shop", mcc: "5311" } } });
const deposit = (jwt: string, wallet_id: number, amount: string) => platform.api("/v0/sandbox/deposits", { method: "POST", jwt, json: { wallet_id, asset: "USDC", amount } });
const rule = (jwt: string, json: Record<string, unknown>) => platform.api("/v0/user/me/rules", { method: "POST", jwt, json });
const executions = async (jwt: string, ruleId: string) => (await (await platform.api(`/v0/user/me/rules/${ruleId}/executions`, { jwt })).json()).items as { outcome: string; event_key: string; task_id: string | null; detail: string | null }[];
const notifications = async (jwt: string) => (await (await platform.api("/v0/notifications", { jwt })).json()).items as { source: string; title: string; body: string }[];
const tasks = async (jwt: string) => (await (await platform.api("/v0/agent-tasks?limit=100", { jwt })).json()).items as { id: string; status: string; output: Record<string, unknown> | null; kind: string }[];

/** Waits until the automation consumer has applied every ledger event published so far. */
async function settled(): Promise<void> {
  await eventually(() => financeDb.ledgerEvent.count({ where: { delivered_at: null } }), (left) => left === 0, "the ledger events to be applied");
}

describe("strategies reacting to the ledger", () => {
  it("rounds a sandbox card purchase up into savings through an agent task the purchase itself started", async () => {
    const user = await approvedUser(platform);
    const savings = ((await (await platform.api("/v0/wallets", { jwt: user.jwt })).json()).items as { id: number; type: string }[]).find((w) => w.type === "Safe")!;
    expect((await deposit(user.jwt, user.wallet_id, "100")).status).toBe(201);
    expect((await platform.api("/v0/user/me/strategies", { method: "POST", jwt: user.jwt, json: { strategy_id: "stg_round_up", parameters: { savings_wallet_id: savings.id } } })).status).toBe(201);
    const card = await (await platform.api("/v0/cards", { method: "POST", jwt: user.jwt, json: { type: "virtual", funding_source: { type: "crypto_wallet", id: String(user.wallet_id) } } })).json();
    expect((await platform.api(`/v0/sandbox/cards/${card.id}/authorizations`, { method: "POST", jwt: user.jwt, json: { amount: "8.25", currency: "USD", merchant: { name: "Bakery", mcc: "5462" } } })).status).toBe(201);

    const runs = await eventually(() => tasks(user.jwt), (items) => items.some((t) => t.kind === "strategy_run" && t.status === "completed" && (t.output as { purchases?: number })?.purchases === 1), "the round-up run");
    expect(runs.find((t) => t.status === "completed")!.output).toMatchObject({ strategy_id: "stg_round_up", moved: [{ amount: "0.75", to_wallet_id: savings.id }] });
    const saved = (await (await platform.api(`/v0/transactions?type=transfer&wallet_id=${savings.id}`, { jwt: user.jwt })).json()).items;
    expect(saved).toEqual([expect.objectContaining({ direction: "in", amount: "0.75", status: "completed" })]);
  });

  it("notifies a low balance when the balance crosses below the threshold, once, not on every later payment", async () => {
    const user = await userWithWallet(platform);
    expect((await deposit(user.jwt, user.wallet_id, "100")).status).toBe(201);
    await settled();
    expect((await platform.api("/v0/user/me/strategies", { method: "POST", jwt: user.jwt, json: { strategy_id: "stg_low_balance_alert", parameters: { wallet_id: user.wallet_id, asset: "USDC", threshold: "50" } } })).status).toBe(201);
    expect((await pay(user.jwt, user.wallet_id, "60")).status).toBe(201);
    await eventually(() => notifications(user.jwt), (items) => items.length === 1, "the low-balance notification");
    expect((await pay(user.jwt, user.wallet_id, "5")).status).toBe(201);
    await settled();
    await eventually(() => tasks(user.jwt), (items) => items.length === 2 && items.every((t) => t.status === "completed"), "both runs");
    expect(await notifications(user.jwt)).toEqual([expect.objectContaining({ source: "stg_low_balance_alert", title: "Low USDC balance" })]);
  });
});

describe("user rules", () => {
  it("checks a rule's types, settings, cron expression, wallets and strategy, and 404s another user's rule", async () => {
    const user = await userWithWallet(platform);
    const other = await userWithWallet(platform);
    const notify = { action_type: "notification", action: {} };
    expect((await problem(await rule(user.jwt, { name: "x", trigger_type: "moon_phase", trigger: {}, ...notify }))).status).toBe(422);
    expect((await problem(await rule(user.jwt, { name: "x", trigger_type: "time_based", trigger: { cron: "99 99 * * *" }, ...notify }))).loc).toEqual(["body.trigger.cron"]);
    expect((await problem(await rule(user.jwt, { name: "x", trigger_type: "time_based", trigger: { cron: "0 9 * * 1", time_zone: "Mars/Olympus" }, ...notify }))).loc).toEqual(["body.trigger.cron"]);
    expect((await problem(await rule(user.jwt, { name: "x", trigger_type: "balance_threshold", trigger: { wallet_id: user.wallet_id, asset: "USDC", threshold: "abc", crossing: "below" }, ...notify }))).loc).toEqual(["body.trigger.threshold"]);
    expect(await problem(await rule(user.jwt, { name: "x", trigger_type: "balance_threshold", trigger: { wallet_id: other.wallet_id, asset: "USDC", threshold: "5", crossing: "below" }, ...notify }))).toMatchObject({ status: 404, code: "WAL-404-001" });
    expect(await problem(await rule(user.jwt, { name: "x", trigger_type: "transaction_received", trigger: {}, action_type: "strategy_trigger", action: { user_strategy_id: "ust_nobody" } }))).toMatchObject({ status: 404, code: "STR-404-002" });
    const made = await (await rule(user.jwt, { name: "Weekly check", trigger_type: "time_based", trigger: { cron: "0 9 * * 1", time_zone: "Europe/Berlin" }, ...notify })).json();
    expect(made).toMatchObject({ enabled: true, next_run_at: expect.any(Number) });
    expect(new Date(made.next_run_at).getUTCDay()).toBe(1);
    for (const response of [await platform.api(`/v0/user/me/rules/${made.id}`, { jwt: other.jwt }), await platform.api(`/v0/user/me/rules/${made.id}/executions`, { jwt: other.jwt })])
      expect(await problem(response)).toMatchObject({ status: 404, code: "RUL-404-001" });
  });

  it("fires a transaction_received rule once per matching transaction, also when the ledger event is delivered again", async () => {
    const user = await userWithWallet(platform);
    const big = await (await rule(user.jwt, { name: "Big deposits", trigger_type: "transaction_received", trigger: { direction: "in", amount_min: "500" }, action_type: "notification", action: { title: "Big deposit" } })).json();
    expect((await deposit(user.jwt, user.wallet_id, "20")).status).toBe(201);
    expect((await deposit(user.jwt, user.wallet_id, "750")).status).toBe(201);
    await eventually(() => executions(user.jwt, big.id), (items) => items.length === 1, "the rule's firing");
    await settled();
    // the outbox delivers the event again (an acknowledgement lost): it is applied once
    const event = await financeDb.ledgerEvent.findFirstOrThrow({ where: { user_id: user.id, payload: { path: ["amount"], equals: "750" } } });
    await financeDb.ledgerEvent.update({ where: { id: event.id }, data: { delivered_at: null } });
    await settled();
    expect(await executions(user.jwt, big.id)).toEqual([expect.objectContaining({ outcome: "fired", event_key: `ledger:${event.id}` })]);
    expect((await notifications(user.jwt)).map((n) => n.title)).toEqual(["Big deposit"]);
  });

  it("fires a balance_threshold rule on each crossing in its direction only, and its transfer action moves money once as a task", async () => {
    const user = await approvedUser(platform);
    const savings = ((await (await platform.api("/v0/wallets", { jwt: user.jwt })).json()).items as { id: number; type: string }[]).find((w) => w.type === "Safe")!;
    expect((await deposit(user.jwt, user.wallet_id, "100")).status).toBe(201);
    await settled();
    const low = await (await rule(user.jwt, { name: "Low", trigger_type: "balance_threshold", trigger: { wallet_id: user.wallet_id, asset: "USDC", threshold: "50", crossing: "below" }, action_type: "notification", action: {} })).json();
    const topUp = await (await rule(user.jwt, { name: "Save", trigger_type: "transaction_received", trigger: { direction: "in", wallet_id: user.wallet_id, amount_min: "200" }, action_type: "transfer", action: { from_wallet_id: user.wallet_id, to_wallet_id: savings.id, asset: "USDC", amount: "10" } })).json();
    for (const [move, amount] of [[pay, "60"], [pay, "5"], [deposit, "300"], [pay, "320"]] as const) {
      expect((await move(user.jwt, user.wallet_id, amount)).status).toBe(201);
      await settled();
    }
    const fired = await executions(user.jwt, low.id);
    expect(fired.map((e) => e.outcome)).toEqual(["fired", "fired"]);
    const [transfer] = await eventually(() => executions(user.jwt, topUp.id), (items) => items.length === 1, "the transfer rule");
    const task = await eventually(async () => (await (await platform.api(`/v0/agent-tasks/${transfer!.task_id}`, { jwt: user.jwt })).json()), (t) => t.status === "completed", "the transfer task");
    expect(task).toMatchObject({ kind: "transfer", output: { amount: "10", to_wallet_id: savings.id } });
    expect((await (await platform.api(`/v0/transactions?type=transfer&wallet_id=${savings.id}`, { jwt: user.jwt })).json()).items).toHaveLength(1);
  });

  it("fires a time_based rule once per slot of its cron expression", async () => {
    const user = await userWithWallet(platform);
    const every = await (await rule(user.jwt, { name: "Every minute", trigger_type: "time_based", trigger: { cron: "* * * * *" }, action_type: "notification", action: { message: "tick" } })).json();
    const slot = new Date(Date.now() - 90_000);
    await agentsDb.userRule.update({ where: { id: every.id }, data: { next_run_at: slot } });
    const services = (platform.subgraphs.agents as any).services;
    const scanner = scheduleScanner({ db: agentsDb, finance: services.finance, logger: createLogger("silent") });
    await scanner.run({ id: "test", kind: "automation_schedule", key: "test", payload: {}, attempts: 1, max_attempts: 8 });
    await scanner.run({ id: "test", kind: "automation_schedule", key: "test", payload: {}, attempts: 1, max_attempts: 8 });
    expect(await executions(user.jwt, every.id)).toEqual([expect.objectContaining({ outcome: "fired", event_key: `time:${slot.getTime()}` })]);
    const after = await (await platform.api(`/v0/user/me/rules/${every.id}`, { jwt: user.jwt })).json();
    expect(after.next_run_at).toBeGreaterThan(Date.now());
    expect((await notifications(user.jwt)).map((n) => n.body)).toEqual(["tick"]);
  });

  it("fires a price_alert rule on the crossing in its direction, once, from where the price stood when it was made", async () => {
    const user = await userWithWallet(platform);
    const services = (platform.subgraphs.agents as any).services;
    const scanner = scheduleScanner({ db: agentsDb, finance: services.finance, logger: createLogger("silent") });
    const pass = () => scanner.run({ id: "test", kind: "automation_schedule", key: "test", payload: {}, attempts: 1, max_attempts: 8 });
    const price = (await (await platform.api("/v0/assets?symbol=ETH", { jwt: user.jwt })).json()).items[0].price.value_usd as string;
    const above = await (await rule(user.jwt, { name: "ETH above", trigger_type: "price_alert", trigger: { asset: "ETH", price: "100", crossing: "above" }, action_type: "notification", action: {} })).json();
    // made while ETH is already above 100: no crossing, no firing
    await pass();
    expect(await executions(user.jwt, above.id)).toEqual([]);
    // as if ETH had been below when last looked at: the next pass sees it cross above, once
    await agentsDb.userRule.update({ where: { id: above.id }, data: { state: { side: "below" } } });
    await pass();
    await pass();
    expect(await executions(user.jwt, above.id)).toEqual([expect.objectContaining({ outcome: "fired", event_key: expect.stringMatching(/^price:ETH:above:/) })]);
    expect((await notifications(user.jwt))[0]!.body).toBe(`ETH is at ${price} USD, now above 100.`);
  });

  it("runs a recurring buy when its slot comes, once per slot, swapping the stablecoin for the asset", async () => {
    const user = await userWithWallet(platform);
    expect((await deposit(user.jwt, user.wallet_id, "100")).status).toBe(201);
    const { id } = await (await platform.api("/v0/user/me/strategies", { method: "POST", jwt: user.jwt, json: { strategy_id: "stg_recurring_buy", parameters: { source_wallet_id: user.wallet_id, asset: "ETH", amount: "30", frequency: "weekly" } } })).json();
    const services = (platform.subgraphs.agents as any).services;
    const scanner = scheduleScanner({ db: agentsDb, finance: services.finance, logger: createLogger("silent") });
    const pass = () => scanner.run({ id: "test", kind: "automation_schedule", key: "test", payload: {}, attempts: 1, max_attempts: 8 });
    await pass();
    await pass();
    const [buy] = await eventually(() => tasks(user.jwt), (items) => items.length === 1 && items[0]!.status === "completed", "the recurring buy");
    expect(buy!.output).toMatchObject({ strategy_id: "stg_recurring_buy", paid: { asset: "USDC", amount: "30" }, bought: { asset: "ETH", amount: "0.01" } });
    const strategy = await agentsDb.userStrategy.findUniqueOrThrow({ where: { id } });
    expect(strategy.next_run_at!.getTime() - Date.now()).toBeGreaterThan(6 * 86_400_000);
    const swaps = (await (await platform.api("/v0/transactions?type=swap", { jwt: user.jwt })).json()).items;
    expect(swaps.map((t: { direction: string; amount: string }) => `${t.direction} ${t.amount}`).sort()).toEqual(["in 0.01", "out 30"]);
  });

  it("refuses a transfer rule from an agent token without write:transfers, and records disabled rules' silence", async () => {
    const user = await userWithWallet(platform);
    const response = await platform.api("/v0/user/me/rules", {
      method: "POST",
      agent: await agentToken(platform, user.jwt, ["write:strategies"]),
      json: { name: "Move", trigger_type: "transaction_received", trigger: {}, action_type: "transfer", action: { from_wallet_id: user.wallet_id, to_wallet_id: user.wallet_id + 1, asset: "USDC", amount: "1" } },
    });
    expect(await problem(response)).toMatchObject({ status: 403, code: "AGT-403-001" });
    const quiet = await (await rule(user.jwt, { name: "Quiet", trigger_type: "transaction_received", trigger: {}, action_type: "notification", action: {}, enabled: false })).json();
    expect((await deposit(user.jwt, user.wallet_id, "5")).status).toBe(201);
    await settled();
    expect(await executions(user.jwt, quiet.id)).toEqual([]);
    expect((await (await platform.api(`/v0/user/me/rules/${quiet.id}`, { method: "PATCH", jwt: user.jwt, json: { enabled: true } })).json()).enabled).toBe(true);
  });
});

describe("user rules: errors and security", () => {
  const notify = { trigger_type: "transaction_received", trigger: {}, action_type: "notification", action: {} };

  it("keeps another user's rule out of reach to change or delete (404 RUL-404-001), and refuses a rule past the most a user holds (409 RUL-409-001) until one is deleted", async () => {
    const user = await userWithWallet(platform);
    const other = await userWithWallet(platform);
    const made = await (await rule(user.jwt, { name: "Mine", ...notify })).json();
    for (const response of [await platform.api(`/v0/user/me/rules/${made.id}`, { method: "PATCH", jwt: other.jwt, json: { enabled: false } }), await platform.api(`/v0/user/me/rules/${made.id}`, { method: "DELETE", jwt: other.jwt })])
      expect(await problem(response)).toMatchObject({ status: 404, code: "RUL-404-001" });
    for (let i = 1; i < RULE_LIMITS.rules_per_user; i++) expect((await rule(user.jwt, { name: `Rule ${i}`, ...notify })).status).toBe(201);
    expect(await problem(await rule(user.jwt, { name: "One too many", ...notify }))).toMatchObject({ status: 409, code: "RUL-409-001" });
    expect((await platform.api(`/v0/user/me/rules/${made.id}`, { method: "DELETE", jwt: user.jwt })).status).toBe(200);
    expect(await problem(await platform.api(`/v0/user/me/rules/${made.id}`, { jwt: user.jwt }))).toMatchObject({ status: 404, code: "RUL-404-001" });
    expect((await rule(user.jwt, { name: "In its place", ...notify })).status).toBe(201);
  });

  it("answers 401 without a credential; a read-only personal access token and an agent token holding read:transactions read rules, but neither makes, changes nor deletes one (403 USR-403-001, AGT-403-001)", async () => {
    const user = await userWithWallet(platform);
    const made = await (await rule(user.jwt, { name: "Mine", ...notify })).json();
    const reads: RouteCall[] = [{ path: "/v0/user/me/rules" }, { path: `/v0/user/me/rules/${made.id}` }, { path: `/v0/user/me/rules/${made.id}/executions` }];
    const writes: RouteCall[] = [
      { method: "POST", path: "/v0/user/me/rules", json: { name: "Another", ...notify } },
      { method: "PATCH", path: `/v0/user/me/rules/${made.id}`, json: { enabled: false } },
      { method: "DELETE", path: `/v0/user/me/rules/${made.id}` },
    ];
    const { reader } = await expectCredentialCases(platform, user.jwt, { reads, writes, agentScope: "read:transactions" });
    await expectEachProblem(platform, writes, { agent: reader }, { status: 403, code: "AGT-403-001" });
    await expectEachProblem(platform, [...reads, ...writes], { agent: await agentToken(platform, user.jwt, ["read:transactions", "write:strategies"], [user.wallet_id]) }, { status: 403, code: "AGT-403-003" });
  });
});
