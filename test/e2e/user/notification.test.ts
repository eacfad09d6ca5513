import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enableStrategy, problemSummary as problem, runStrategy } from "../../support/agent-tasks.ts";
import { userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { agentToken, expectEachProblem, readOnlyPat, type RouteCall } from "../../support/route-cases.ts";

// The user's notifications (GET /v0/notifications, POST /v0/notifications/{notification_id}/read),
// written here by a low-balance alert strategy's run (issue 13).
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

const enable = (jwt: string, strategy_id: string, parameters: Record<string, unknown>) => enableStrategy(platform, jwt, strategy_id, parameters);
const run = (jwt: string, user_strategy_id: string) => runStrategy(platform, jwt, user_strategy_id);
const deposit = (jwt: string, wallet_id: number, amount: string) => platform.api("/v0/sandbox/deposits", { method: "POST", jwt, json: { wallet_id, asset: "USDC", amount } });

describe("notifications", () => {
  it("notifies once per run when a watched balance is low, and the notification can be read", async () => {
    const user = await userWithWallet(platform);
    expect((await deposit(user.jwt, user.wallet_id, "20")).status).toBe(201);
    // the deposit's ledger event is applied before the alert exists (else it would start a run of its own)
    const financeDb = (platform.subgraphs.finance as any).services.db;
    for (let i = 0; i < 200 && (await financeDb.ledgerEvent.count({ where: { delivered_at: null } })) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const { id } = await (await enable(user.jwt, "stg_low_balance_alert", { wallet_id: user.wallet_id, asset: "USDC", threshold: "50" })).json();
    const task = await run(user.jwt, id);
    expect(task).toMatchObject({ status: "completed", output: { triggered: true, available: "20", threshold: "50" } });
    const { items } = await (await platform.api("/v0/notifications?unread=true", { jwt: user.jwt })).json();
    expect(items).toEqual([expect.objectContaining({ source: "stg_low_balance_alert", title: "Low USDC balance", data: expect.objectContaining({ available: "20" }), read_at: null })]);
    const read = await platform.api(`/v0/notifications/${items[0].id}/read`, { method: "POST", jwt: user.jwt });
    expect((await read.json()).read_at).toEqual(expect.any(Number));
    expect((await (await platform.api("/v0/notifications?unread=true", { jwt: user.jwt })).json()).items).toEqual([]);
    const stranger = await platform.createUser();
    expect(await problem(await platform.api(`/v0/notifications/${items[0].id}/read`, { method: "POST", jwt: stranger.jwt }))).toMatchObject({ status: 404, code: "NTF-404-001" });

    expect((await deposit(user.jwt, user.wallet_id, "100")).status).toBe(201);
    expect((await run(user.jwt, id)).output).toMatchObject({ triggered: false });
    expect((await (await platform.api("/v0/notifications", { jwt: user.jwt })).json()).items).toHaveLength(1);
  });
});

describe("notifications: security", () => {
  it("answers 401 without a credential; a read-only personal access token and an agent token holding read:transactions list, the PAT marks nothing read (403 USR-403-001), other agent tokens list nothing (403 AGT-403-001, AGT-403-003)", async () => {
    const user = await userWithWallet(platform);
    const list: RouteCall = { path: "/v0/notifications" };
    const mark: RouteCall = { method: "POST", path: "/v0/notifications/ntf_missing/read" };
    await expectEachProblem(platform, [list, mark], {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, user.jwt);
    expect((await platform.api(list.path, { pat })).status).toBe(200);
    await expectEachProblem(platform, [mark], { pat }, { status: 403, code: "USR-403-001" });
    expect((await platform.api(list.path, { agent: await agentToken(platform, user.jwt, ["read:transactions"]) })).status).toBe(200);
    await expectEachProblem(platform, [list], { agent: await agentToken(platform, user.jwt, ["read:balances", "write:transfers", "write:strategies"]) }, { status: 403, code: "AGT-403-001" });
    await expectEachProblem(platform, [list], { agent: await agentToken(platform, user.jwt, ["read:transactions"], [user.wallet_id]) }, { status: 403, code: "AGT-403-003" });
  });
});
