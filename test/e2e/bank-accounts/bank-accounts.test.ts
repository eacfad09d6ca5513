import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import { linkSandboxBank, transactionFeed, userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { agentToken, expectEachProblem, readOnlyPat, statusAndCode as problem, type RouteCall } from "../../support/route-cases.ts";

// Issue 12, linking bank accounts (Open Banking, Bank Accounts): link token → the sandbox widget
// → public token → exchange (once) → accounts; another user's is 404; unlinking revokes the login.
let platform: TestPlatform;
let db: FinanceDb;

beforeAll(async () => {
  platform = await startTestPlatform();
  db = (platform.subgraphs.finance as any).services.db;
});
afterAll(() => platform?.stop());

async function publicToken(jwt: string, institution_id = "ins_sandbox_first"): Promise<string> {
  const link = await platform.api("/v0/open-banking/link-token", { method: "POST", jwt });
  expect(link.status).toBe(201);
  const { link_token, expires_at } = await link.json();
  expect(expires_at - Date.now()).toBeGreaterThan(29 * 60_000);
  const played = await platform.api("/v0/sandbox/open-banking/link", { method: "POST", jwt, json: { link_token, institution_id } });
  expect(played.status).toBe(201);
  return (await played.json()).public_token;
}

const exchange = (jwt: string, public_token: string) => platform.api("/v0/open-banking/exchange", { method: "POST", jwt, json: { public_token } });

describe("linking a sandbox bank", () => {
  it("links the login's accounts with the last four digits only, a balance and an active connection, keeping the access token sealed", async () => {
    const { jwt } = await platform.createUser();
    const response = await exchange(jwt, await publicToken(jwt));
    expect(response.status).toBe(201);
    const { items } = await response.json();
    expect(items).toEqual([
      expect.objectContaining({ institution_id: "ins_sandbox_first", institution_name: "First Sandbox Bank", account_type: "checking", currency: "USD", balance: "1250.00", connection_status: "active", mask: expect.stringMatching(/^\d{4}$/) }),
      expect.objectContaining({ account_type: "savings", balance: "5000.00" }),
    ]);
    expect(JSON.stringify(items)).not.toContain("access-sandbox");
    const connection = await db.bankConnection.findFirstOrThrow({ where: { user_id: (await (await platform.api("/v0/user/me", { jwt })).json()).id } });
    expect(connection.access_token_sealed).not.toContain("access-sandbox");

    const list = await (await platform.api("/v0/bank-accounts", { jwt })).json();
    expect(list.items.map((a: { id: string }) => a.id)).toEqual(items.map((a: { id: string }) => a.id));
    const one = await platform.api(`/v0/bank-accounts/${items[0].id}`, { jwt });
    expect(one.status).toBe(200);
    expect((await one.json())._links.unlink.method).toBe("DELETE");
  });

  it("links a public token once: a second exchange, also a concurrent one, is 400 BNK-400-001", async () => {
    const { jwt } = await platform.createUser();
    const token = await publicToken(jwt, "ins_sandbox_euro");
    const statuses = (await Promise.all([exchange(jwt, token), exchange(jwt, token)])).map((r) => r.status).sort();
    expect(statuses).toEqual([201, 400]);
    expect(await problem(await exchange(jwt, token))).toEqual({ status: 400, code: "BNK-400-001" });
    expect((await (await platform.api("/v0/bank-accounts", { jwt })).json()).items).toHaveLength(1);
  });

  it("refuses another user's public token, a forged or mangled one, an unknown institution and refused credentials", async () => {
    const alice = await platform.createUser();
    const bob = await platform.createUser();
    expect(await problem(await exchange(bob.jwt, await publicToken(alice.jwt)))).toEqual({ status: 400, code: "BNK-400-001" });
    expect(await problem(await exchange(bob.jwt, "public-sandbox-eyJ1IjoieCJ9.forged"))).toEqual({ status: 400, code: "BNK-400-001" });
    const { link_token } = await (await platform.api("/v0/open-banking/link-token", { method: "POST", jwt: alice.jwt })).json();
    const play = (json: Record<string, unknown>) => platform.api("/v0/sandbox/open-banking/link", { method: "POST", jwt: alice.jwt, json: { link_token, institution_id: "ins_sandbox_first", ...json } });
    expect(await problem(await play({ institution_id: "ins_nowhere" }))).toEqual({ status: 422, code: "BNK-422-001" });
    expect(await problem(await play({ outcome: "invalid_credentials" }))).toEqual({ status: 422, code: "BNK-422-002" });
    expect(await problem(await play({ link_token: `${link_token.slice(0, -2)}xx` }))).toEqual({ status: 400, code: "BNK-400-001" });
    expect((await (await platform.api("/v0/bank-accounts", { jwt: alice.jwt })).json()).items).toEqual([]);
  });

  it("answers 404 BNK-404-001 for another user's account, and unlinks the user's own: the login is revoked with its last account", async () => {
    const owner = await platform.createUser();
    const stranger = await platform.createUser();
    const [checking, savings] = (await (await exchange(owner.jwt, await publicToken(owner.jwt))).json()).items;
    for (const response of [await platform.api(`/v0/bank-accounts/${checking.id}`, { jwt: stranger.jwt }), await platform.api(`/v0/bank-accounts/${checking.id}`, { method: "DELETE", jwt: stranger.jwt })])
      expect(await problem(response)).toEqual({ status: 404, code: "BNK-404-001" });

    const first = await platform.api(`/v0/bank-accounts/${checking.id}`, { method: "DELETE", jwt: owner.jwt });
    expect(first.status).toBe(200);
    expect((await first.json()).connection_status).toBe("active");
    expect((await (await platform.api("/v0/bank-accounts", { jwt: owner.jwt })).json()).items.map((a: { id: string }) => a.id)).toEqual([savings.id]);
    expect(await problem(await platform.api(`/v0/bank-accounts/${checking.id}`, { jwt: owner.jwt }))).toEqual({ status: 404, code: "BNK-404-001" });
    expect(await problem(await platform.api(`/v0/bank-accounts/${checking.id}`, { method: "DELETE", jwt: owner.jwt }))).toEqual({ status: 404, code: "BNK-404-001" });
    const last = await platform.api(`/v0/bank-accounts/${savings.id}`, { method: "DELETE", jwt: owner.jwt });
    expect((await last.json()).connection_status).toBe("revoked");
  });

  it("answers User.bank_accounts on /graphql", async () => {
    const { jwt } = await platform.createUser();
    await exchange(jwt, await publicToken(jwt, "ins_sandbox_euro"));
    const body = await (await fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": jwt }, body: JSON.stringify({ query: "{ me { bank_accounts { institution_id currency mask } } }" }) })).json();
    expect(body.data.me.bank_accounts).toEqual([{ institution_id: "ins_sandbox_euro", currency: "EUR", mask: expect.stringMatching(/^\d{4}$/) }]);
  });
});

describe("bank accounts: security", () => {
  it("answers 404 BNK-404-001 to a connection event on another user's account", async () => {
    const owner = await platform.createUser();
    const [checking] = await linkSandboxBank(platform, owner.jwt);
    const stranger = await platform.createUser();
    expect(await problem(await platform.api(`/v0/sandbox/bank-accounts/${checking!.id}/connection-events`, { method: "POST", jwt: stranger.jwt, json: { event: "link.completed" } }))).toEqual({ status: 404, code: "BNK-404-001" });
  });

  it("answers 401 without a credential; a read-only personal access token reads but links, unlinks and plays nothing (403 USR-403-001)", async () => {
    const { jwt } = await platform.createUser();
    const [checking] = await linkSandboxBank(platform, jwt);
    const transaction = (await transactionFeed(platform, jwt, `&bank_account_id=${checking!.id}`)).items[0];
    const reads: RouteCall[] = [{ path: "/v0/bank-accounts" }, { path: `/v0/bank-accounts/${checking!.id}` }];
    const writes: RouteCall[] = [
      { method: "DELETE", path: `/v0/bank-accounts/${checking!.id}` },
      { method: "POST", path: "/v0/open-banking/link-token" },
      { method: "POST", path: "/v0/open-banking/exchange", json: { public_token: "public-sandbox-missing" } },
      { method: "POST", path: "/v0/sandbox/open-banking/link", json: { link_token: "link-sandbox-missing", institution_id: "ins_sandbox_first" } },
      { method: "POST", path: `/v0/sandbox/bank-accounts/${checking!.id}/transactions`, json: { amount: "1.00", direction: "in", type: "interest", description: "probe" } },
      { method: "POST", path: `/v0/sandbox/transactions/${transaction.id}/bank-settlement`, json: { outcome: "posted" } },
      { method: "POST", path: `/v0/sandbox/bank-accounts/${checking!.id}/connection-events`, json: { event: "link.completed" } },
    ];
    await expectEachProblem(platform, [...reads, ...writes], {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, jwt);
    for (const { path } of reads) expect((await platform.api(path, { pat })).status, path).toBe(200);
    await expectEachProblem(platform, writes, { pat }, { status: 403, code: "USR-403-001" });
  });

  it("lets an agent token holding read:balances read the accounts, not one without it (403 AGT-403-001) nor one restricted to wallets (403 AGT-403-003)", async () => {
    const user = await userWithWallet(platform);
    const [checking] = await linkSandboxBank(platform, user.jwt);
    const reads: RouteCall[] = [{ path: "/v0/bank-accounts" }, { path: `/v0/bank-accounts/${checking!.id}` }];
    const reader = await agentToken(platform, user.jwt, ["read:balances"]);
    for (const { path } of reads) expect((await platform.api(path, { agent: reader })).status, path).toBe(200);
    await expectEachProblem(platform, reads, { agent: await agentToken(platform, user.jwt, ["read:transactions", "write:transfers", "write:strategies"]) }, { status: 403, code: "AGT-403-001" });
    await expectEachProblem(platform, reads, { agent: await agentToken(platform, user.jwt, ["read:balances"], [user.wallet_id]) }, { status: 403, code: "AGT-403-003" });
  });
});
