import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import { approvedUser, deliverBankingEvent, linkSandboxBank, transactionFeed, userWithWallet } from "../../support/finance.ts";
import { agentToken, expectCredentialCases, expectEachProblem, statusAndCode as problem, type RouteCall } from "../../support/route-cases.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Issue 12: on- and off-ramps (the Open Banking tag's /v0/ramps routes), each state reported by the
// banking provider's signed webhook.
let platform: TestPlatform;
let db: FinanceDb;

beforeAll(async () => {
  platform = await startTestPlatform({ BANKING_WEBHOOK_SECRET: "bank-old-secret-for-rotation, bank-new-secret-for-rotation" });
  db = (platform.subgraphs.finance as any).services.db;
});
afterAll(() => platform?.stop());

/** Links First Sandbox Bank for the user; answers [checking, savings], already synced. */
const linkBank = (jwt: string) => linkSandboxBank(platform, jwt);
const feed = (jwt: string, query = "") => transactionFeed(platform, jwt, query);
const deliver = (event: Record<string, unknown>) => deliverBankingEvent(platform, event);

describe("on- and off-ramps", () => {
  const quote = (jwt: string, json: Record<string, unknown>) => platform.api("/v0/ramps/quotes", { method: "POST", jwt, json });
  const carryOut = (jwt: string, direction: "on" | "off", quote_id: string, key?: string) =>
    platform.api(`/v0/ramps/${direction}`, { method: "POST", jwt, json: { quote_id }, ...(key && { headers: { "Idempotency-Key": key } }) });
  const walletUsdc = async (jwt: string, wallet_id: number) => {
    const response = await platform.api(`/v0/wallets/${wallet_id}/assets`, { jwt });
    const { assets } = await response.json();
    // balances in base units: 6 decimals for USDC
    return assets.find((a: { asset: { symbol: string } }) => a.asset.symbol === "USDC") ?? null;
  };

  it("on-ramps into a wallet and off-ramps back, each state reported by a signed webhook; the bank side arrives by sync", async () => {
    const user = await approvedUser(platform);
    const [checking] = await linkBank(user.jwt);
    const q = await quote(user.jwt, { direction: "on", bank_account_id: checking!.id, wallet_id: user.wallet_id, asset: "USDC", amount: "250.00" });
    expect(q.status).toBe(201);
    const onQuote = await q.json();
    expect(onQuote).toMatchObject({ direction: "on", fiat_amount: "250.00", fee: "2.50", rate: "1", asset_amount: "247.5", currency: "USD", asset: "USDC" });
    expect(onQuote.expires_at - Date.now()).toBeGreaterThan(4 * 60_000);

    const first = await carryOut(user.jwt, "on", onQuote.id, "ramp-on-1");
    expect(first.status).toBe(201);
    const ramp = await first.json();
    expect(ramp).toMatchObject({ status: "processing", direction: "on", asset_amount: "247.5", fiat_amount: "250.00", quote_id: onQuote.id });
    // a retry with the key answers the same ramp; the quote cannot be used again
    expect((await (await carryOut(user.jwt, "on", onQuote.id, "ramp-on-1")).json()).id).toBe(ramp.id);
    expect(await problem(await carryOut(user.jwt, "on", onQuote.id, "ramp-on-2"))).toEqual({ status: 409, code: "RMP-409-001" });
    expect(await walletUsdc(user.jwt, user.wallet_id)).toBeNull();

    const settled = await platform.api(`/v0/sandbox/ramps/${ramp.id}/settle`, { method: "POST", jwt: user.jwt, json: { outcome: "completed" } });
    expect(settled.status).toBe(200);
    const done = await (await platform.api(`/v0/ramps/${ramp.id}`, { jwt: user.jwt })).json();
    expect(done.status).toBe("completed");
    const movement = await (await platform.api(`/v0/transactions/${done.transaction_id}`, { jwt: user.jwt })).json();
    expect(movement).toMatchObject({ type: "on_ramp", direction: "in", status: "completed", asset: { symbol: "USDC" }, wallet_id: user.wallet_id });
    expect(movement.status_history.map((h: { to: string }) => h.to)).toEqual(["pending", "processing", "completed"]);
    expect((await walletUsdc(user.jwt, user.wallet_id)).balance).toBe("247500000");
    const bankSide = (await feed(user.jwt, `&bank_account_id=${checking!.id}&type=bank_transfer`)).items.find((t: { description: string }) => t.description === "Purchase of USDC");
    expect(bankSide).toMatchObject({ direction: "out", amount: "250", status: "completed" });
    expect((await (await platform.api(`/v0/bank-accounts/${checking!.id}`, { jwt: user.jwt })).json()).balance).toBe("1000.00");

    expect(await db.bankingProviderEvent.findMany({ where: { type: { startsWith: "ramp." }, detail: { contains: ramp.id } }, select: { type: true, outcome: true }, orderBy: { received_at: "asc" } })).toEqual([
      { type: "ramp.processing", outcome: "applied" },
      { type: "ramp.completed", outcome: "applied" },
    ]);
    // a second report (ramp.failed after completed) is recorded and ignored
    const providerRamp = await db.ramp.findUniqueOrThrow({ where: { id: ramp.id } });
    expect((await deliver({ id: `evt_late_${ramp.id}`, type: "ramp.failed", data: { ramp_id: providerRamp.provider_ramp_id, reason: "late" } })).status).toBe(200);
    expect((await (await platform.api(`/v0/ramps/${ramp.id}`, { jwt: user.jwt })).json()).status).toBe("completed");
    expect(await db.bankingProviderEvent.findUnique({ where: { event_id: `evt_late_${ramp.id}` } })).toMatchObject({ outcome: "ignored" });

    // off-ramp: never more than the wallet holds (the pending one counts), a failure gives it back
    const offQuote = await (await quote(user.jwt, { direction: "off", bank_account_id: checking!.id, wallet_id: user.wallet_id, asset: "USDC", amount: "200" })).json();
    expect(offQuote).toMatchObject({ asset_amount: "200", fiat_amount: "198.00", fee: "2.00" });
    const off = await carryOut(user.jwt, "off", offQuote.id);
    expect(off.status).toBe(201);
    const offRamp = await off.json();
    const tooMuch = await (await quote(user.jwt, { direction: "off", bank_account_id: checking!.id, wallet_id: user.wallet_id, asset: "USDC", amount: "100" })).json();
    expect(await problem(await carryOut(user.jwt, "off", tooMuch.id))).toEqual({ status: 409, code: "TXN-409-002" });
    expect((await platform.api(`/v0/sandbox/ramps/${offRamp.id}/settle`, { method: "POST", jwt: user.jwt, json: { outcome: "failed" } })).status).toBe(200);
    const failed = await (await platform.api(`/v0/ramps/${offRamp.id}`, { jwt: user.jwt })).json();
    expect(failed).toMatchObject({ status: "failed", failure_reason: "declined_by_bank" });
    expect((await walletUsdc(user.jwt, user.wallet_id)).balance).toBe("247500000");
    const again = await (await quote(user.jwt, { direction: "off", bank_account_id: checking!.id, wallet_id: user.wallet_id, asset: "USDC", amount: "100" })).json();
    expect((await carryOut(user.jwt, "off", again.id)).status).toBe(201);

    const list = await (await platform.api("/v0/ramps?direction=off", { jwt: user.jwt })).json();
    expect(list.items.map((r: { status: string }) => r.status)).toEqual(["processing", "failed"]);
  });

  it("fails an on-ramp larger than the bank balance, refuses the quote's misuse, and carries out a quote once under concurrent requests", async () => {
    const user = await approvedUser(platform);
    const [checking] = await linkBank(user.jwt);
    const big = await (await quote(user.jwt, { direction: "on", bank_account_id: checking!.id, wallet_id: user.wallet_id, asset: "USDC", amount: "5000.00" })).json();
    expect(await problem(await carryOut(user.jwt, "off", big.id))).toEqual({ status: 422, code: "RMP-422-002" });
    const answers = await Promise.all([carryOut(user.jwt, "on", big.id), carryOut(user.jwt, "on", big.id), carryOut(user.jwt, "on", big.id)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const ramp = await answers.find((r) => r.status === 201)!.json();
    const settled = await (await platform.api(`/v0/sandbox/ramps/${ramp.id}/settle`, { method: "POST", jwt: user.jwt, json: { outcome: "completed" } })).json();
    expect(settled.outcome).toBe("failed");
    expect(await (await platform.api(`/v0/ramps/${ramp.id}`, { jwt: user.jwt })).json()).toMatchObject({ status: "failed", failure_reason: "insufficient_funds" });

    const stale = await (await quote(user.jwt, { direction: "on", bank_account_id: checking!.id, wallet_id: user.wallet_id, asset: "USDC", amount: "10.00" })).json();
    await db.rampQuote.update({ where: { id: stale.id }, data: { expires_at: new Date(Date.now() - 1000) } });
    expect(await problem(await carryOut(user.jwt, "on", stale.id))).toEqual({ status: 409, code: "RMP-409-002" });
    expect(await problem(await quote(user.jwt, { direction: "on", bank_account_id: checking!.id, wallet_id: user.wallet_id, asset: "USDC", amount: "1.00" }))).toEqual({ status: 422, code: "RMP-422-001" });
  });

  it("refuses a quote whose amount, other side or USD value has more than 30 digits before the point: 422 at body.amount, never a 500, nothing stored (issue 26)", async () => {
    const user = await approvedUser(platform);
    const [checking] = await linkBank(user.jwt);
    const refused = async (json: Record<string, unknown>) => {
      const response = await quote(user.jwt, { bank_account_id: checking!.id, wallet_id: user.wallet_id, ...json });
      expect(response.status).toBe(422);
      const body = await response.json();
      expect(body.error_code).toBe("GEN-422-001");
      expect(body.detail[0].loc).toEqual(["body", "amount"]);
      return body.detail[0].msg as string;
    };
    expect(await refused({ direction: "on", asset: "USDC", amount: "9".repeat(40) })).toContain("30 digits");
    // 30 digits of ETH are 34 of dollars at 3000 USD: too many for the bank's NUMERIC(38, 2) once summed
    expect(await refused({ direction: "off", asset: "ETH", amount: "9".repeat(30) })).toContain("fiat amount");
    expect(await db.rampQuote.count({ where: { user_id: user.id } })).toBe(0);
  });

  it("books a bank's report whose USD value is beyond the bound without a USD value, rather than refusing what happened", async () => {
    const { jwt } = await platform.createUser();
    const [giro] = await linkSandboxBank(platform, jwt, "ins_sandbox_euro");
    const added = await platform.api(`/v0/sandbox/bank-accounts/${giro!.id}/transactions`, { method: "POST", jwt, json: { amount: "9".repeat(30), direction: "in", type: "interest", description: "Windfall" } });
    expect(added.status).toBe(201);
    const { transaction_id } = await added.json();
    // EUR at 1.08 USD: 31 digits of dollars
    expect(await (await platform.api(`/v0/transactions/${transaction_id}`, { jwt })).json()).toMatchObject({ amount: "9".repeat(30), currency: "EUR", amount_usd: null });
  });

  it("never off-ramps more than the wallet holds, also when two off-ramps race for the same balance", async () => {
    const user = await approvedUser(platform);
    const [checking] = await linkBank(user.jwt);
    expect((await platform.api("/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet_id, asset: "USDC", amount: "100" } })).status).toBe(201);
    const quotes = await Promise.all([1, 2].map(async () => (await quote(user.jwt, { direction: "off", bank_account_id: checking!.id, wallet_id: user.wallet_id, asset: "USDC", amount: "60" })).json()));
    const answers = await Promise.all(quotes.map((q) => carryOut(user.jwt, "off", q.id)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await problem(answers.find((r) => r.status === 409)!)).toEqual({ status: 409, code: "TXN-409-002" });
    expect((await db.ramp.findMany({ where: { user_id: user.id } })).length).toBe(1);
  });

  it("needs approved KYC to carry out a ramp, an active connection, and the user's own quote, ramp, bank account and wallet", async () => {
    const unverified = await userWithWallet(platform);
    const [checking] = await linkBank(unverified.jwt);
    const q = await (await quote(unverified.jwt, { direction: "on", bank_account_id: checking!.id, wallet_id: unverified.wallet_id, asset: "USDC", amount: "10.00" })).json();
    expect(await problem(await carryOut(unverified.jwt, "on", q.id))).toEqual({ status: 403, code: "RMP-403-001" });

    const owner = await approvedUser(platform);
    const [ownChecking] = await linkBank(owner.jwt);
    expect(await problem(await carryOut(owner.jwt, "on", q.id))).toEqual({ status: 404, code: "RMP-404-001" });
    expect(await problem(await quote(owner.jwt, { direction: "on", bank_account_id: checking!.id, wallet_id: owner.wallet_id, asset: "USDC", amount: "10.00" }))).toEqual({ status: 404, code: "BNK-404-001" });
    expect(await problem(await quote(owner.jwt, { direction: "on", bank_account_id: ownChecking!.id, wallet_id: unverified.wallet_id, asset: "USDC", amount: "10.00" }))).toEqual({ status: 404, code: "WAL-404-001" });
    const mine = await (await quote(owner.jwt, { direction: "on", bank_account_id: ownChecking!.id, wallet_id: owner.wallet_id, asset: "USDC", amount: "10.00" })).json();
    const ramp = await (await carryOut(owner.jwt, "on", mine.id)).json();
    expect(await problem(await platform.api(`/v0/ramps/${ramp.id}`, { jwt: unverified.jwt }))).toEqual({ status: 404, code: "RMP-404-002" });
    expect(await problem(await platform.api(`/v0/sandbox/ramps/${ramp.id}/settle`, { method: "POST", jwt: unverified.jwt, json: { outcome: "completed" } }))).toEqual({ status: 404, code: "RMP-404-002" });

    await platform.api(`/v0/sandbox/bank-accounts/${ownChecking!.id}/connection-events`, { method: "POST", jwt: owner.jwt, json: { event: "link.reauth_required" } });
    expect(await problem(await quote(owner.jwt, { direction: "on", bank_account_id: ownChecking!.id, wallet_id: owner.wallet_id, asset: "USDC", amount: "10.00" }))).toEqual({ status: 409, code: "RMP-409-003" });
  });
});

describe("ramps: security", () => {
  it("answers 401 without a credential; a read-only personal access token and an agent token holding read:transactions read ramps, the PAT quotes, ramps and settles nothing (403 USR-403-001), other agent tokens read none (403 AGT-403-001, AGT-403-003)", async () => {
    const user = await approvedUser(platform);
    const [checking] = await linkBank(user.jwt);
    const quoted = await (await platform.api("/v0/ramps/quotes", { method: "POST", jwt: user.jwt, json: { direction: "on", bank_account_id: checking!.id, wallet_id: user.wallet_id, asset: "USDC", amount: "10.00" } })).json();
    const ramp = await (await platform.api("/v0/ramps/on", { method: "POST", jwt: user.jwt, json: { quote_id: quoted.id } })).json();
    const reads: RouteCall[] = [{ path: "/v0/ramps" }, { path: `/v0/ramps/${ramp.id}` }];
    const writes: RouteCall[] = [
      { method: "POST", path: "/v0/ramps/quotes", json: { direction: "on", bank_account_id: checking!.id, wallet_id: user.wallet_id, asset: "USDC", amount: "10.00" } },
      { method: "POST", path: "/v0/ramps/on", json: { quote_id: quoted.id } },
      { method: "POST", path: "/v0/ramps/off", json: { quote_id: quoted.id } },
      { method: "POST", path: `/v0/sandbox/ramps/${ramp.id}/settle`, json: { outcome: "completed" } },
    ];
    await expectCredentialCases(platform, user.jwt, { reads, writes, agentScope: "read:transactions" });
    await expectEachProblem(platform, reads, { agent: await agentToken(platform, user.jwt, ["read:transactions"], [user.wallet_id]) }, { status: 403, code: "AGT-403-003" });
  });
});
