import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { userWithWallet } from "../../support/finance.ts";
import { expectEachProblem, readOnlyPat, type RouteCall } from "../../support/route-cases.ts";

// Issue 13: the dashboard's widgets and their data, answered by the same REST operations.
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

async function problem(response: Response) {
  const body = await response.json();
  return { status: response.status, code: body.error_code as string, loc: Array.isArray(body.detail) ? body.detail.map((item: { loc: unknown[] }) => item.loc.join(".")) : undefined };
}

const add = (jwt: string, json: Record<string, unknown>) => platform.api("/v0/widgets", { method: "POST", jwt, json });

describe("widgets", () => {
  it("lays out a dashboard and answers each widget's data from the operation a client would call", async () => {
    const user = await userWithWallet(platform);
    expect((await platform.api("/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet_id, asset: "USDC", amount: "42" } })).status).toBe(201);
    const balance = await (await add(user.jwt, { type: "balance", position: { x: 0, y: 0, w: 6, h: 2 }, title: "Money" })).json();
    const feed = await (await add(user.jwt, { type: "transactions", position: { x: 6, y: 0, w: 6, h: 4 }, settings: { limit: 5, direction: "in" } })).json();
    expect(feed).toMatchObject({ settings: { limit: 5, direction: "in" }, data_request: "/v0/transactions?limit=5&direction=in&meta=true" });
    await add(user.jwt, { type: "budget", position: { x: 0, y: 2, w: 6, h: 2 } });
    expect((await (await platform.api("/v0/widgets", { jwt: user.jwt })).json()).items.map((w: { type: string }) => w.type)).toEqual(["balance", "transactions", "budget"]);

    const balanceData = await (await platform.api(`/v0/widgets/${balance.id}/data`, { jwt: user.jwt })).json();
    const accounts = await (await platform.api("/v0/accounts", { jwt: user.jwt })).json();
    expect(balanceData.data).toEqual(accounts);
    expect(balanceData.widget).toMatchObject({ id: balance.id, title: "Money" });
    const feedData = await (await platform.api(`/v0/widgets/${feed.id}/data`, { jwt: user.jwt })).json();
    expect(feedData.data.items).toEqual([expect.objectContaining({ type: "deposit", amount: "42" })]);
    expect(feedData.data.meta.transaction_count).toBe(1);
    const iso = await (await platform.api(`/v0/widgets/${feed.id}/data`, { jwt: user.jwt, headers: { "x-timestamp-format": "iso8601" } })).json();
    expect(iso.data.items[0].timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("checks types, positions and settings, moves and removes widgets, and 404s another user's", async () => {
    const user = await userWithWallet(platform);
    const other = await userWithWallet(platform);
    expect((await add(user.jwt, { type: "weather", position: { x: 0, y: 0, w: 1, h: 1 } })).status).toBe(422);
    expect((await add(user.jwt, { type: "balance", position: { x: 12, y: 0, w: 1, h: 1 } })).status).toBe(422);
    expect((await problem(await add(user.jwt, { type: "transactions", position: { x: 0, y: 0, w: 4, h: 2 }, settings: { limit: 500 } }))).loc).toEqual(["body.settings.limit"]);
    const chat = await (await add(user.jwt, { type: "chat", position: { x: 0, y: 0, w: 4, h: 4 }, settings: { session_id: "chs_gone" } })).json();
    expect(await problem(await platform.api(`/v0/widgets/${chat.id}/data`, { jwt: user.jwt }))).toMatchObject({ status: 404, code: "CHT-404-001" });
    const moved = await (await platform.api(`/v0/widgets/${chat.id}`, { method: "PATCH", jwt: user.jwt, json: { position: { x: 4, y: 1, w: 8, h: 3 }, settings: {} } })).json();
    expect(moved).toMatchObject({ position: { x: 4, y: 1, w: 8, h: 3 }, data_request: "/v0/chat/sessions" });
    expect((await platform.api(`/v0/widgets/${chat.id}/data`, { jwt: user.jwt })).status).toBe(200);
    for (const response of [
      await platform.api(`/v0/widgets/${chat.id}`, { jwt: other.jwt }),
      await platform.api(`/v0/widgets/${chat.id}/data`, { jwt: other.jwt }),
      await platform.api(`/v0/widgets/${chat.id}`, { method: "DELETE", jwt: other.jwt }),
    ])
      expect(await problem(response)).toMatchObject({ status: 404, code: "WDG-404-001" });
    expect((await platform.api(`/v0/widgets/${chat.id}/data`)).status).toBe(401);
    expect((await platform.api(`/v0/widgets/${chat.id}`, { method: "DELETE", jwt: user.jwt })).status).toBe(200);
    expect((await (await platform.api("/v0/widgets", { jwt: user.jwt })).json()).items).toEqual([]);
  });
});

describe("widgets: security", () => {
  it("keeps another user's widget unchanged (404 WDG-404-001); answers 401 without a credential, and a read-only personal access token reads widgets but adds, changes and removes none (403 USR-403-001)", async () => {
    const user = await userWithWallet(platform);
    const widget = await (await add(user.jwt, { type: "balance", position: { x: 0, y: 0, w: 1, h: 1 } })).json();
    const other = await userWithWallet(platform);
    expect(await problem(await platform.api(`/v0/widgets/${widget.id}`, { method: "PATCH", jwt: other.jwt, json: { title: "mine" } }))).toMatchObject({ status: 404, code: "WDG-404-001" });
    const reads: RouteCall[] = [{ path: "/v0/widgets" }, { path: `/v0/widgets/${widget.id}` }];
    const writes: RouteCall[] = [
      { method: "POST", path: "/v0/widgets", json: { type: "balance", position: { x: 0, y: 0, w: 1, h: 1 } } },
      { method: "PATCH", path: `/v0/widgets/${widget.id}`, json: { title: "probe" } },
      { method: "DELETE", path: `/v0/widgets/${widget.id}` },
    ];
    await expectEachProblem(platform, [...reads, ...writes], {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, user.jwt);
    for (const { path } of reads) expect((await platform.api(path, { pat })).status, path).toBe(200);
    await expectEachProblem(platform, writes, { pat }, { status: 403, code: "USR-403-001" });
  });
});
