import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enableStrategy, problemSummary as problem, runStrategy } from "../../support/agent-tasks.ts";
import { userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { agentToken, expectCredentialCases, expectEachProblem, type RouteCall } from "../../support/route-cases.ts";

// Agent tasks (spec 3.5) through /v0/agent-tasks: their kinds and inputs, the moves a task may make,
// another user's task 404.
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

const enable = (jwt: string, strategy_id: string, parameters: Record<string, unknown>) => enableStrategy(platform, jwt, strategy_id, parameters);
const run = (jwt: string, user_strategy_id: string) => runStrategy(platform, jwt, user_strategy_id);

describe("agent tasks", () => {
  it("refuses unknown kinds and inputs off the kind's schema, and moves spec 3.5 allows nowhere else: a queued task cannot be cancelled", async () => {
    const user = await userWithWallet(platform);
    const create = (json: unknown) => platform.api("/v0/agent-tasks", { method: "POST", jwt: user.jwt, json });
    expect((await problem(await create({ kind: "mine_bitcoin" }))).loc).toEqual(["body.kind"]);
    expect((await problem(await create({ kind: "strategy_run", input: { user_strategy_id: 7 } }))).loc).toEqual(["body.input.user_strategy_id"]);
    expect((await problem(await create({ kind: "strategy_run", input: {} }))).status).toBe(422);
    const { id: ust } = await (await enable(user.jwt, "stg_low_balance_alert", { wallet_id: user.wallet_id, asset: "USDC", threshold: "1" })).json();
    const later = await (await create({ kind: "strategy_run", input: { user_strategy_id: ust }, scheduled_at: Date.now() + 3_600_000, title: "Tomorrow's check" })).json();
    expect(later).toMatchObject({ status: "queued", title: "Tomorrow's check", started_at: null });
    expect(await problem(await platform.api(`/v0/agent-tasks/${later.id}/cancel`, { method: "POST", jwt: user.jwt }))).toMatchObject({ status: 409, code: "TSK-409-001" });
    expect((await (await platform.api("/v0/agent-tasks?status=queued", { jwt: user.jwt })).json()).items.map((t: { id: string }) => t.id)).toEqual([later.id]);
    const done = await run(user.jwt, ust);
    expect(await problem(await platform.api(`/v0/agent-tasks/${done.id}/cancel`, { method: "POST", jwt: user.jwt }))).toMatchObject({ status: 409, code: "TSK-409-001" });
    expect((await problem(await create({ kind: "strategy_run", input: { user_strategy_id: ust }, scheduled_at: Date.now() + 400 * 86_400_000 }))).loc).toEqual(["body.scheduled_at"]);

    const stranger = await platform.createUser();
    for (const response of [await platform.api(`/v0/agent-tasks/${done.id}`, { jwt: stranger.jwt }), await platform.api(`/v0/agent-tasks/${done.id}/cancel`, { method: "POST", jwt: stranger.jwt })])
      expect(await problem(response)).toMatchObject({ status: 404, code: "TSK-404-001" });
  });
});

describe("agent tasks: errors and security", () => {
  it("answers 404 STR-404-002 to run another user's strategy", async () => {
    const owner = await userWithWallet(platform);
    const { id: ust } = await (await enable(owner.jwt, "stg_low_balance_alert", { wallet_id: owner.wallet_id, asset: "USDC", threshold: "1" })).json();
    const stranger = await platform.createUser();
    expect(await problem(await platform.api("/v0/agent-tasks", { method: "POST", jwt: stranger.jwt, json: { kind: "strategy_run", input: { user_strategy_id: ust } } }))).toMatchObject({ status: 404, code: "STR-404-002" });
  });

  it("answers 401 without a credential; a read-only personal access token and an agent token holding read:transactions read but neither queues nor cancels (403 USR-403-001, AGT-403-001), an agent token without read:transactions reads nothing (403 AGT-403-001)", async () => {
    const user = await userWithWallet(platform);
    const { id: ust } = await (await enable(user.jwt, "stg_low_balance_alert", { wallet_id: user.wallet_id, asset: "USDC", threshold: "1" })).json();
    const queued = await platform.api("/v0/agent-tasks", { method: "POST", jwt: user.jwt, json: { kind: "strategy_run", input: { user_strategy_id: ust }, scheduled_at: Date.now() + 3_600_000 } });
    const { id } = await queued.json();
    const reads: RouteCall[] = [{ path: "/v0/agent-tasks" }, { path: `/v0/agent-tasks/${id}` }];
    const writes: RouteCall[] = [
      { method: "POST", path: "/v0/agent-tasks", json: { kind: "strategy_run", input: { user_strategy_id: ust } } },
      { method: "POST", path: `/v0/agent-tasks/${id}/cancel` },
    ];
    const { reader } = await expectCredentialCases(platform, user.jwt, { reads, writes, agentScope: "read:transactions" });
    await expectEachProblem(platform, writes, { agent: reader }, { status: 403, code: "AGT-403-001" });
  });

  it("lets an agent token holding write:strategies queue a task, and answers 403 AGT-403-003 to one restricted to wallets", async () => {
    const user = await userWithWallet(platform);
    const { id: ust } = await (await enable(user.jwt, "stg_low_balance_alert", { wallet_id: user.wallet_id, asset: "USDC", threshold: "1" })).json();
    const writer = await agentToken(platform, user.jwt, ["write:strategies"]);
    expect((await platform.api("/v0/agent-tasks", { method: "POST", agent: writer, json: { kind: "strategy_run", input: { user_strategy_id: ust }, scheduled_at: Date.now() + 3_600_000 } })).status).toBe(201);
    const restricted = await agentToken(platform, user.jwt, ["read:transactions", "write:strategies"], [user.wallet_id]);
    await expectEachProblem(platform, [{ path: "/v0/agent-tasks" }, { method: "POST", path: "/v0/agent-tasks", json: { kind: "strategy_run", input: { user_strategy_id: ust } } }], { agent: restricted }, { status: 403, code: "AGT-403-003" });
  });
});
