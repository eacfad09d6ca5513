import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import { sourceBalances } from "../../../subgraphs/finance/transactions/balances.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { approvedUser, ensureAsset } from "../../support/finance.ts";
import { agentToken, expectEachProblem, readOnlyPat, type RouteCall } from "../../support/route-cases.ts";

// Issue 10, authorizations: one decision for every path (each decline reason), the sandbox
// simulator (authorize, capture, reverse, refund) booking card_purchase / card_refund against the
// funding wallet with the card named, cards in GET /v0/accounts and ?card_id=, Idempotency-Key,
// and concurrent authorizations that only one fits (on PostgreSQL in e2e-postgres).

let platform: TestPlatform;
let db: FinanceDb;

beforeAll(async () => {
  platform = await startTestPlatform();
  db = (platform.subgraphs.finance as any).services.db;
  await ensureAsset(db, "USDC", 6);
});
afterAll(() => platform?.stop());

type User = Awaited<ReturnType<typeof approvedUser>>;
const GROCERY = { name: "Corner Grocery", mcc: "5411" };
const code = async (response: Response) => (await response.json()).error_code;

/** A KYC-approved user with `funds` USDC in their wallet and a virtual USD card on it. */
async function holder(funds: string, controls: Record<string, unknown> = {}) {
  const user = await approvedUser(platform);
  if (funds !== "0") {
    const deposit = await platform.api("/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet_id, asset: "USDC", amount: funds } });
    expect(deposit.status).toBe(201);
  }
  const card = await newCard(user, controls);
  return { ...user, card };
}

async function newCard(user: User, controls: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const response = await platform.api("/v0/cards", { method: "POST", jwt: user.jwt, json: { type: "virtual", funding_source: { type: "crypto_wallet", id: String(user.wallet_id) }, controls, ...extra } });
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json();
}

function authorize(jwt: string, cardId: string, body: Record<string, unknown> = {}, key?: string) {
  return platform.api(`/v0/sandbox/cards/${cardId}/authorizations`, {
    method: "POST",
    jwt,
    json: { amount: "10", currency: "USD", merchant: GROCERY, ...body },
    ...(key !== undefined && { headers: { "idempotency-key": key } }),
  });
}

async function approved(jwt: string, cardId: string, body: Record<string, unknown> = {}) {
  const response = await authorize(jwt, cardId, body);
  expect(response.status).toBe(201);
  const authorization = await response.json();
  expect(authorization, JSON.stringify(authorization)).toMatchObject({ decision: "approved", status: "pending" });
  return authorization;
}

function act(jwt: string, id: string, action: "capture" | "reverse" | "refund", body?: unknown, key?: string) {
  return platform.api(`/v0/sandbox/card-authorizations/${id}/${action}`, {
    method: "POST",
    jwt,
    ...((body !== undefined || action === "refund") && { json: body ?? {} }),
    ...(key !== undefined && { headers: { "idempotency-key": key } }),
  });
}

async function usdc(walletId: number) {
  const balances = await sourceBalances(db, { kind: "wallet", id: walletId });
  return balances.find((b) => b.asset_symbol === "USDC")!;
}

const history = (transaction: { status_history: { from: string | null; to: string }[] }) => transaction.status_history.map((c) => [c.from, c.to]);

describe("declines: each reason, recorded and listed", () => {
  it("declines for every rule, books nothing, and lists the declines newest first", async () => {
    const user = await holder("100", { single_transaction_limit: "50", daily_limit: "80", monthly_limit: "90", blocked_mcc: ["7995"] });
    const allowOnly = await newCard(user, { allowed_mcc: ["5812"] });
    const frozen = await newCard(user);
    expect((await platform.api(`/v0/cards/${frozen.id}/freeze`, { method: "POST", jwt: user.jwt })).status).toBe(200);
    const monthly = await newCard(user, { monthly_limit: "20" });
    await approved(user.jwt, monthly.id, { amount: "15" });

    const cases: [string, Record<string, unknown>, string][] = [
      [frozen.id, {}, "card_inactive"],
      [user.card.id, { currency: "EUR" }, "currency_mismatch"],
      [user.card.id, { amount: "50.01" }, "single_transaction_limit_exceeded"],
      [monthly.id, { amount: "5.01" }, "monthly_limit_exceeded"],
      [allowOnly.id, {}, "mcc_not_allowed"],
      [user.card.id, { merchant: { name: "Casino", mcc: "7995" } }, "mcc_blocked"],
      [allowOnly.id, { amount: "85.01", merchant: { name: "Diner", mcc: "5812" } }, "insufficient_funds"],
    ];
    for (const [cardId, body, reason] of cases) {
      const response = await authorize(user.jwt, cardId, body);
      expect(response.status).toBe(201);
      const authorization = await response.json();
      expect(authorization, reason).toMatchObject({ card_id: cardId, decision: "declined", decline_reason: reason, status: "declined", transaction: null, refunds: [], refunded_amount: "0" });
      expect(authorization.id).toMatch(/^cau_[0-9a-z]{26}$/);
      expect(authorization._links.capture).toBeUndefined();
    }

    // the daily limit: 45 approved leaves 35 of 80 today; 35.01 is declined, exactly 35 passes
    await approved(user.jwt, user.card.id, { amount: "45" });
    const daily = await (await authorize(user.jwt, user.card.id, { amount: "35.01" })).json();
    expect(daily).toMatchObject({ decision: "declined", decline_reason: "daily_limit_exceeded" });
    await approved(user.jwt, user.card.id, { amount: "35" });
    const overDay = await (await authorize(user.jwt, user.card.id, { amount: "10.01" })).json();
    expect(overDay.decline_reason).toBe("daily_limit_exceeded");

    const purchases = await db.transaction.count({ where: { user_id: user.id, type: "card_purchase" } });
    expect(purchases).toBe(3);
    const listed = await (await platform.api(`/v0/cards/${user.card.id}/authorizations?limit=2`, { jwt: user.jwt })).json();
    expect(listed.pagination).toEqual({ limit: 2, offset: 0, total: 7 });
    expect(listed.items.map((a: { decision: string; amount: string }) => [a.decision, a.amount])).toEqual([["declined", "10.01"], ["approved", "35"]]);
    expect(listed._links.next.href).toContain("offset=2");
  });

  it("refuses a malformed request (422) and another user's card (404 CRD-404-001)", async () => {
    const user = await holder("10");
    for (const body of [{ amount: "1.001" }, { amount: "0" }, { merchant: { name: "X", mcc: "54" } }, { currency: "DOLLARS" }]) {
      const response = await authorize(user.jwt, user.card.id, body);
      expect([response.status, await code(response)], JSON.stringify(body)).toEqual([422, "GEN-422-001"]);
    }
    const other = await approvedUser(platform);
    const foreign = await authorize(other.jwt, user.card.id);
    expect([foreign.status, await code(foreign)]).toEqual([404, "CRD-404-001"]);
    const list = await platform.api(`/v0/cards/${user.card.id}/authorizations`, { jwt: other.jwt });
    expect([list.status, await code(list)]).toEqual([404, "CRD-404-001"]);
    expect(await db.cardAuthorization.count({ where: { card_id: user.card.id } })).toBe(0);
  });
});

describe("approve, capture, reverse, refund", () => {
  it("an approval debits the funding wallet with a pending card_purchase naming the card; capture completes it, counted in a groceries budget", async () => {
    const user = await holder("100");
    const budget = await (await platform.api("/v0/budgets", { method: "POST", jwt: user.jwt, json: { category: "groceries", amount: "200", period: "monthly" } })).json();
    expect(budget.spent).toBe("0");

    const authorization = await approved(user.jwt, user.card.id, { amount: "42.50" });
    expect(authorization).toMatchObject({ amount: "42.5", currency: "USD", merchant: GROCERY, decline_reason: null, refunded_amount: "0" });
    expect(authorization.transaction).toMatchObject({
      type: "card_purchase",
      direction: "out",
      status: "pending",
      amount: "42.5",
      asset: { symbol: "USDC", decimals: 6 },
      amount_usd: "42.5",
      category: "groceries",
      merchant: GROCERY,
      wallet_id: user.wallet_id,
      card_id: user.card.id,
    });
    expect(authorization._links).toMatchObject({ capture: { method: "POST" }, reverse: { method: "POST" } });
    expect(await usdc(user.wallet_id)).toMatchObject({ balance: "100", available_balance: "57.5" });
    const card = await (await platform.api(`/v0/cards/${user.card.id}`, { jwt: user.jwt })).json();
    expect(card.usage.daily.spent).toBe("42.5");

    const captured = await act(user.jwt, authorization.id, "capture");
    expect(captured.status).toBe(200);
    const body = await captured.json();
    expect(body).toMatchObject({ id: authorization.id, status: "captured", transaction: { id: authorization.transaction.id, status: "completed" } });
    expect(history(body.transaction)).toEqual([[null, "pending"], ["pending", "processing"], ["processing", "completed"]]);
    expect(body._links.refund).toBeDefined();
    expect(await usdc(user.wallet_id)).toMatchObject({ balance: "57.5", available_balance: "57.5" });

    const feed = await (await platform.api(`/v0/transactions?card_id=${user.card.id}`, { jwt: user.jwt })).json();
    expect(feed.items.map((t: { id: string; status: string }) => [t.id, t.status])).toEqual([[authorization.transaction.id, "completed"]]);
    const spent = await (await platform.api(`/v0/budgets/${budget.id}`, { jwt: user.jwt })).json();
    expect(spent).toMatchObject({ spent: "42.5", remaining: "157.5" });
  });

  it("a reversal fails the purchase, freeing the balance and the limits", async () => {
    const user = await holder("50", { daily_limit: "30" });
    const authorization = await approved(user.jwt, user.card.id, { amount: "30" });
    expect((await (await authorize(user.jwt, user.card.id, { amount: "1" })).json()).decline_reason).toBe("daily_limit_exceeded");
    const reversed = await (await act(user.jwt, authorization.id, "reverse")).json();
    expect(reversed).toMatchObject({ status: "reversed", transaction: { status: "failed" } });
    expect(history(reversed.transaction)).toEqual([[null, "pending"], ["pending", "processing"], ["processing", "failed"]]);
    expect(await usdc(user.wallet_id)).toMatchObject({ balance: "50", available_balance: "50" });
    await approved(user.jwt, user.card.id, { amount: "30" });
  });

  it("refunds a captured authorization in parts into the funding wallet, never past the captured amount", async () => {
    const user = await holder("100");
    const authorization = await approved(user.jwt, user.card.id, { amount: "30" });
    expect((await act(user.jwt, authorization.id, "capture")).status).toBe(200);

    const partial = await act(user.jwt, authorization.id, "refund", { amount: "10" });
    expect(partial.status).toBe(200);
    const first = await partial.json();
    expect(first).toMatchObject({ status: "captured", refunded_amount: "10" });
    expect(first.refunds).toHaveLength(1);
    expect(first.refunds[0]).toMatchObject({ type: "card_refund", direction: "in", status: "completed", amount: "10", asset: { symbol: "USDC" }, wallet_id: user.wallet_id, card_id: user.card.id, merchant: GROCERY });
    expect(await usdc(user.wallet_id)).toMatchObject({ balance: "80" });

    const tooMuch = await act(user.jwt, authorization.id, "refund", { amount: "20.01" });
    expect([tooMuch.status, await code(tooMuch)]).toEqual([422, "CRD-422-003"]);
    const rest = await (await act(user.jwt, authorization.id, "refund", {})).json();
    expect(rest).toMatchObject({ status: "refunded", refunded_amount: "30" });
    expect(rest.refunds.map((t: { amount: string }) => t.amount)).toEqual(["10", "20"]);
    expect(rest._links.refund).toBeUndefined();
    expect(await usdc(user.wallet_id)).toMatchObject({ balance: "100" });

    // the card's feed: its purchase and both refunds; the deposit is the wallet's, not the card's
    const feed = await (await platform.api(`/v0/transactions?card_id=${user.card.id}`, { jwt: user.jwt })).json();
    expect(feed.items.map((t: { type: string }) => t.type).sort()).toEqual(["card_purchase", "card_refund", "card_refund"]);
    const again = await act(user.jwt, authorization.id, "refund", {});
    expect([again.status, await code(again)]).toEqual([409, "CRD-409-002"]);
  });

  it("refuses illegal moves with 409 CRD-409-002 and another user's authorization with 404 CRD-404-002", async () => {
    const user = await holder("100");
    const one = await approved(user.jwt, user.card.id);
    const refundEarly = await act(user.jwt, one.id, "refund", {});
    expect([refundEarly.status, await code(refundEarly)]).toEqual([409, "CRD-409-002"]);
    expect((await act(user.jwt, one.id, "capture")).status).toBe(200);
    for (const action of ["capture", "reverse"] as const) {
      const response = await act(user.jwt, one.id, action);
      const problem = await response.json();
      expect([response.status, problem.error_code], action).toEqual([409, "CRD-409-002"]);
      expect(problem.detail).toContain("captured");
    }
    const declined = await (await authorize(user.jwt, user.card.id, { currency: "EUR" })).json();
    const captureDeclined = await act(user.jwt, declined.id, "capture");
    expect([captureDeclined.status, await code(captureDeclined)]).toEqual([409, "CRD-409-002"]);

    const other = await approvedUser(platform);
    for (const action of ["capture", "reverse", "refund"] as const) {
      const response = await act(other.jwt, one.id, action);
      expect([response.status, await code(response)], action).toEqual([404, "CRD-404-002"]);
    }
    const missing = await act(user.jwt, "cau_missing", "capture");
    expect([missing.status, await code(missing)]).toEqual([404, "CRD-404-002"]);
  });

  it("a frozen card still captures an earlier approval", async () => {
    const user = await holder("20");
    const authorization = await approved(user.jwt, user.card.id);
    expect((await platform.api(`/v0/cards/${user.card.id}/freeze`, { method: "POST", jwt: user.jwt })).status).toBe(200);
    expect((await (await act(user.jwt, authorization.id, "capture")).json()).status).toBe("captured");
  });
});

describe("Idempotency-Key", () => {
  it("a retried authorization answers the first one and books it once; a retried capture answers it too", async () => {
    const user = await holder("100");
    const first = await authorize(user.jwt, user.card.id, { amount: "12" }, "auth-once");
    const again = await authorize(user.jwt, user.card.id, { amount: "12" }, "auth-once");
    expect([first.status, again.status]).toEqual([201, 201]);
    const body = await first.json();
    expect(await again.json()).toEqual(body);
    expect(await db.cardAuthorization.count({ where: { card_id: user.card.id } })).toBe(1);
    expect(await db.transaction.count({ where: { card_id: user.card.id } })).toBe(1);
    const other = await authorize(user.jwt, user.card.id, { amount: "13" }, "auth-once");
    expect([other.status, await code(other)]).toEqual([422, "TXN-422-001"]);

    const capture = await act(user.jwt, body.id, "capture", undefined, "capture-once");
    const captureAgain = await act(user.jwt, body.id, "capture", undefined, "capture-once");
    expect([capture.status, captureAgain.status]).toEqual([200, 200]);
    expect(await captureAgain.json()).toEqual(await capture.json());

    const refund = await act(user.jwt, body.id, "refund", { amount: "2" }, "refund-once");
    const refundAgain = await act(user.jwt, body.id, "refund", { amount: "2" }, "refund-once");
    expect([refund.status, refundAgain.status]).toEqual([200, 200]);
    expect((await refundAgain.json()).refunded_amount).toBe("2");
    expect(await db.transaction.count({ where: { card_id: user.card.id, type: "card_refund" } })).toBe(1);
  });
});

describe("concurrent authorizations", () => {
  it("of two that only one fits under the daily limit, exactly one is approved", async () => {
    const user = await holder("1000", { daily_limit: "100" });
    const answers = await Promise.all([authorize(user.jwt, user.card.id, { amount: "60" }), authorize(user.jwt, user.card.id, { amount: "60" })]);
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    expect(bodies.map((b) => b.decline_reason ?? "approved").sort()).toEqual(["approved", "daily_limit_exceeded"]);
    const card = await (await platform.api(`/v0/cards/${user.card.id}`, { jwt: user.jwt })).json();
    expect(card.usage.daily.spent).toBe("60");
  });

  it("of two that only one fits in the funding wallet, exactly one is approved", async () => {
    const user = await holder("100");
    const second = await newCard(user);
    const answers = await Promise.all([authorize(user.jwt, user.card.id, { amount: "70" }), authorize(user.jwt, second.id, { amount: "70" })]);
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(bodies.map((b) => b.decline_reason ?? "approved").sort()).toEqual(["approved", "insufficient_funds"]);
    expect(await usdc(user.wallet_id)).toMatchObject({ available_balance: "30" });
  });
});

describe("cards in the account view and GraphQL", () => {
  it("GET /v0/accounts lists each card that is not closed, with no balances of its own, so nothing counts twice", async () => {
    const user = await holder("100");
    const named = await newCard(user, {}, { nickname: "Travel" });
    const closed = await newCard(user);
    expect((await platform.api(`/v0/cards/${closed.id}/close`, { method: "POST", jwt: user.jwt })).status).toBe(200);
    await approved(user.jwt, user.card.id, { amount: "25" });

    const accounts = await (await platform.api("/v0/accounts", { jwt: user.jwt })).json();
    const wallet = accounts.items.find((item: { source: string; source_id: string }) => item.source === "crypto_wallet" && item.source_id === String(user.wallet_id));
    expect(wallet.card).toBeNull();
    expect(accounts.items.filter((item: { source: string }) => item.source === "card")).toEqual([
      { source: "card", source_id: user.card.id, name: `Virtual card •••• ${user.card.last_four}`, chain_id: null, address: null, balances: [], total_value_usd: "0", card: { status: "active", currency: "USD", funding_source: { type: "crypto_wallet", id: user.wallet_id } } },
      { source: "card", source_id: named.id, name: "Travel", chain_id: null, address: null, balances: [], total_value_usd: "0", card: { status: "active", currency: "USD", funding_source: { type: "crypto_wallet", id: user.wallet_id } } },
    ]);
    expect(accounts.total_value_usd).toBe(wallet.total_value_usd);
    expect(accounts._links.cards).toBeDefined();
  });

  it("Card.authorizations reads the card's authorizations", async () => {
    const user = await holder("10");
    await approved(user.jwt, user.card.id, { amount: "1" });
    const response = await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": user.jwt },
      body: JSON.stringify({ query: `query ($id: ID!) { card(id: $id) { authorizations { items { decision status amount transaction { type card_id } } pagination { total } } } }`, variables: { id: user.card.id } }),
    });
    const { data, errors } = await response.json();
    expect(errors).toBeUndefined();
    expect(data.card.authorizations).toEqual({ items: [{ decision: "approved", status: "pending", amount: "1", transaction: { type: "card_purchase", card_id: user.card.id } }], pagination: { total: 1 } });
  });
});

describe("card authorizations: security", () => {
  it("answers 401 without a credential; a read-only personal access token and an agent token holding read:transactions list, but the PAT simulates nothing (403 USR-403-001)", async () => {
    const user = await holder("100");
    const one = await approved(user.jwt, user.card.id);
    const list: RouteCall = { path: `/v0/cards/${user.card.id}/authorizations` };
    const writes: RouteCall[] = [
      { method: "POST", path: `/v0/sandbox/cards/${user.card.id}/authorizations`, json: { amount: "1", currency: "USD", merchant: GROCERY } },
      ...(["capture", "reverse"] as const).map((action): RouteCall => ({ method: "POST", path: `/v0/sandbox/card-authorizations/${one.id}/${action}` })),
      { method: "POST", path: `/v0/sandbox/card-authorizations/${one.id}/refund`, json: {} },
    ];
    await expectEachProblem(platform, [list, ...writes], {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, user.jwt);
    expect((await platform.api(list.path, { pat })).status).toBe(200);
    await expectEachProblem(platform, writes, { pat }, { status: 403, code: "USR-403-001" });
    expect((await platform.api(list.path, { agent: await agentToken(platform, user.jwt, ["read:transactions"]) })).status).toBe(200);
  });

  it("answers 403 AGT-403-001 to an agent token without read:transactions and 403 AGT-403-003 to one restricted to wallets", async () => {
    const user = await holder("0");
    const list = [{ path: `/v0/cards/${user.card.id}/authorizations` }];
    await expectEachProblem(platform, list, { agent: await agentToken(platform, user.jwt, ["read:balances", "write:transfers", "write:strategies"]) }, { status: 403, code: "AGT-403-001" });
    await expectEachProblem(platform, list, { agent: await agentToken(platform, user.jwt, ["read:transactions"], [user.wallet_id]) }, { status: 403, code: "AGT-403-003" });
  });
});
