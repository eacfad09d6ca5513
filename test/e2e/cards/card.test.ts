import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import { CARD_ACTIONS, canPerform, type CardAction } from "../../../subgraphs/finance/cards/card-status.ts";
import { CARD_STATUSES } from "../../../lib/vocabulary/cards.ts";
import { isLuhnValid, SANDBOX_BIN } from "../../../subgraphs/finance/cards/sandbox-card-issuer.ts";
import { CardDataCipher } from "../../../lib/crypto/card-data-cipher.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { approvedUser, ensureAsset, userWithWallet } from "../../support/finance.ts";
import { agentToken, expectEachProblem, readOnlyPat, type RouteCall } from "../../support/route-cases.ts";

// Issue 10, cards: POST/GET/PATCH /v0/cards, the spec 3.3 lifecycle (activate, freeze, unfreeze,
// close), controls, funding (GET/PUT /v0/cards/{id}/funding), KYC required, numbers sealed at rest.

let platform: TestPlatform;
let db: FinanceDb;

beforeAll(async () => {
  platform = await startTestPlatform();
  db = (platform.subgraphs.finance as any).services.db;
  await ensureAsset(db, "USDC", 6);
});
afterAll(() => platform?.stop());

const SHIPPING = { name: "Ada Lovelace", line1: "1 Analytical Way", city: "London", postal_code: "N1 9GU", country: "GB" };

function cards(jwt: string, path = "", init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}) {
  return platform.api(`/v0/cards${path}`, { jwt, ...init });
}

async function issue(user: { jwt: string; wallet_id: number }, body: Record<string, unknown> = {}) {
  const response = await cards(user.jwt, "", { method: "POST", json: { type: "virtual", funding_source: { type: "crypto_wallet", id: user.wallet_id }, ...body } });
  expect(response.status, await response.clone().text()).toBe(201);
  return response.json();
}

const code = async (response: Response) => (await response.json()).error_code;

describe("issuing", () => {
  it("issues an active virtual card with its controls, never showing the number, and seals the number at rest", async () => {
    const user = await approvedUser(platform);
    const card = await issue(user, { nickname: "Groceries", controls: { daily_limit: "100", blocked_mcc: ["7995"] } });
    expect(card).toMatchObject({
      type: "virtual",
      status: "active",
      nickname: "Groceries",
      currency: "USD",
      funding_source: { type: "crypto_wallet", id: user.wallet_id },
      controls: { daily_limit: "100", monthly_limit: null, single_transaction_limit: null, allowed_mcc: [], blocked_mcc: ["7995"] },
      usage: { time_zone: "UTC", daily: { limit: "100", spent: "0", remaining: "100" }, monthly: { limit: null, spent: "0", remaining: null } },
      shipping_address: null,
    });
    expect(card.id).toMatch(/^crd_[0-9a-z]{26}$/);
    expect(card.last_four).toMatch(/^[0-9]{4}$/);
    expect(card.status_history.map((c: { from: string | null; to: string }) => [c.from, c.to])).toEqual([[null, "pending"], ["pending", "active"]]);
    expect(card._links.freeze).toMatchObject({ method: "POST" });
    for (const field of ["number", "cvv", "expiry_month", "expiry_year"]) expect(card).not.toHaveProperty(field);

    const row = (await db.card.findUnique({ where: { id: card.id } }))!;
    expect(row.number_encrypted).toMatch(/^v1\./);
    const cipher = (platform.subgraphs.finance as any).services.cardCipher as CardDataCipher;
    const number = cipher.open(row.number_encrypted);
    expect(number.startsWith(SANDBOX_BIN) && isLuhnValid(number) && number.endsWith(card.last_four)).toBe(true);
    expect(JSON.stringify(row)).not.toContain(number);
    expect(cipher.open(row.cvv_encrypted)).toMatch(/^[0-9]{3}$/);

    expect((await (await cards(user.jwt)).json()).items.map((c: { id: string }) => c.id)).toEqual([card.id]);
    const read = await (await cards(user.jwt, `/${card.id}`)).json();
    expect(read).toEqual(card);
    expect(JSON.stringify(read)).not.toContain(number);
  });

  it("needs approved KYC (403 CRD-403-001), a funding source of the user's, and a valid request", async () => {
    const unverified = await userWithWallet(platform);
    const refused = await cards(unverified.jwt, "", { method: "POST", json: { type: "virtual", funding_source: { type: "crypto_wallet", id: String(unverified.wallet_id) } } });
    expect(refused.status).toBe(403);
    expect(await code(refused)).toBe("CRD-403-001");

    const user = await approvedUser(platform);
    const other = await userWithWallet(platform);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ funding_source: { type: "crypto_wallet", id: String(other.wallet_id) } }, 404, "WAL-404-001"],
      [{ funding_source: { type: "crypto_wallet", id: "abc" } }, 404, "WAL-404-001"],
      [{ funding_source: { type: "bank_account", id: "bac_1" } }, 404, "BNK-404-001"],
      [{ controls: { allowed_mcc: ["5411"], blocked_mcc: ["7995"] } }, 422, "CRD-422-001"],
      [{ controls: { daily_limit: "10.001" } }, 422, "GEN-422-001"],
      [{ controls: { blocked_mcc: ["79951"] } }, 422, "GEN-422-001"],
      [{ type: "physical" }, 422, "GEN-422-001"],
      [{ shipping_address: SHIPPING }, 422, "GEN-422-001"],
      [{ currency: "GBP" }, 422, "GEN-422-001"],
      [{ type: "metal" }, 422, "GEN-422-001"],
    ];
    for (const [body, status, errorCode] of cases) {
      const response = await cards(user.jwt, "", { method: "POST", json: { type: "virtual", funding_source: { type: "crypto_wallet", id: String(user.wallet_id) }, ...body } });
      expect([response.status, await code(response)], JSON.stringify(body)).toEqual([status, errorCode]);
    }
    expect(await db.card.count({ where: { user_id: user.id } })).toBe(0);
  });

  it("takes a wallet by the integer id GET /v0/wallets answers (spec 2.3), or that id in decimal as before, and answers it as the integer", async () => {
    const user = await approvedUser(platform);
    const [wallet] = (await (await platform.api("/v0/wallets", { jwt: user.jwt })).json()).items as { id: number }[];
    expect(Number.isInteger(wallet!.id)).toBe(true);
    for (const id of [wallet!.id, String(wallet!.id)]) {
      const response = await cards(user.jwt, "", { method: "POST", json: { type: "virtual", funding_source: { type: "crypto_wallet", id } } });
      expect(response.status, await response.clone().text()).toBe(201);
      const card = await response.json();
      expect(card.funding_source, JSON.stringify(id)).toEqual({ type: "crypto_wallet", id: wallet!.id });
      expect(card._links.funding_wallet.href).toMatch(new RegExp(`/v0/wallets/${wallet!.id}$`));
      expect((await (await cards(user.jwt, `/${card.id}/funding`)).json()).id).toBe(wallet!.id);
    }
    const items = (await (await cards(user.jwt)).json()).items as { id: string; funding_source: unknown }[];
    expect(items.map((card) => card.funding_source)).toEqual([{ type: "crypto_wallet", id: wallet!.id }, { type: "crypto_wallet", id: wallet!.id }]);
    const card = items[0]!;
    for (const id of [0, -1, 12.5, 2_147_483_648, null, true]) {
      const response = await cards(user.jwt, `/${card.id}/funding`, { method: "PUT", json: { type: "crypto_wallet", id } });
      expect([response.status, (await response.json()).detail?.[0]?.loc], JSON.stringify(id)).toEqual([422, ["body", "id"]]);
    }
  });

  it("honours Idempotency-Key: one card however often the request is retried", async () => {
    const user = await approvedUser(platform);
    const body = { type: "virtual", funding_source: { type: "crypto_wallet", id: user.wallet_id } };
    const first = await cards(user.jwt, "", { method: "POST", json: body, headers: { "idempotency-key": "card-once" } });
    const again = await cards(user.jwt, "", { method: "POST", json: body, headers: { "idempotency-key": "card-once" } });
    // the wallet id in decimal is the same request
    const asText = await cards(user.jwt, "", { method: "POST", json: { ...body, funding_source: { type: "crypto_wallet", id: String(user.wallet_id) } }, headers: { "idempotency-key": "card-once" } });
    expect([first.status, again.status, asText.status]).toEqual([201, 201, 201]);
    const answer = await first.json();
    expect(await again.json()).toEqual(answer);
    expect(await asText.json()).toEqual(answer);
    const other = await cards(user.jwt, "", { method: "POST", json: { ...body, nickname: "x" }, headers: { "idempotency-key": "card-once" } });
    expect([other.status, await code(other)]).toEqual([422, "TXN-422-001"]);
    expect(await db.card.count({ where: { user_id: user.id } })).toBe(1);
  });
});

describe("the lifecycle (spec 3.3)", () => {
  it("activates a physical card with its last four, then freezes, unfreezes and closes it", async () => {
    const user = await approvedUser(platform);
    const card = await issue(user, { type: "physical", shipping_address: SHIPPING });
    expect(card).toMatchObject({ status: "pending", shipping_address: SHIPPING });
    expect(card._links.activate).toBeDefined();
    const wrong = String((Number(card.last_four) + 1) % 10000).padStart(4, "0");
    const mismatch = await cards(user.jwt, `/${card.id}/activate`, { method: "POST", json: { last_four: wrong } });
    expect([mismatch.status, await code(mismatch)]).toEqual([422, "CRD-422-002"]);
    const steps: [string, Record<string, unknown> | undefined, string][] = [
      ["activate", { last_four: card.last_four }, "active"],
      ["freeze", undefined, "suspended"],
      ["unfreeze", undefined, "active"],
      ["freeze", undefined, "suspended"],
      ["close", undefined, "closed"],
    ];
    let last;
    for (const [action, json, status] of steps) {
      const response = await cards(user.jwt, `/${card.id}/${action}`, { method: "POST", ...(json && { json }) });
      expect(response.status, action).toBe(200);
      last = await response.json();
      expect(last.status).toBe(status);
    }
    expect(last.status_history.map((c: { from: string | null; to: string }) => `${c.from}->${c.to}`)).toEqual([
      "null->pending",
      "pending->active",
      "active->suspended",
      "suspended->active",
      "active->suspended",
      "suspended->closed",
    ]);
    const patch = await cards(user.jwt, `/${card.id}`, { method: "PATCH", json: { nickname: "gone" } });
    expect([patch.status, await code(patch)]).toEqual([409, "CRD-409-001"]);
    const funding = await cards(user.jwt, `/${card.id}/funding`, { method: "PUT", json: { type: "crypto_wallet", id: String(user.wallet_id) } });
    expect([funding.status, await code(funding)]).toEqual([409, "CRD-409-001"]);
  });

  it("refuses every move spec 3.3 does not have, with CRD-409-001 naming the current status", async () => {
    const user = await approvedUser(platform);
    // a card in each status: pending (physical), active, suspended, closed
    const inStatus = async (status: (typeof CARD_STATUSES)[number]) => {
      const card = status === "pending" ? await issue(user, { type: "physical", shipping_address: SHIPPING }) : await issue(user);
      const path = { pending: [], active: [], suspended: ["freeze"], closed: ["close"] }[status];
      for (const action of path) expect((await cards(user.jwt, `/${card.id}/${action}`, { method: "POST" })).status).toBe(200);
      return card;
    };
    let tried = 0;
    for (const status of CARD_STATUSES) {
      for (const action of Object.keys(CARD_ACTIONS) as CardAction[]) {
        if (canPerform(status, action)) continue;
        const card = await inStatus(status);
        const response = await cards(user.jwt, `/${card.id}/${action}`, { method: "POST", ...(action === "activate" && { json: { last_four: card.last_four } }) });
        const body = await response.json();
        expect([response.status, body.error_code], `${status} ${action}`).toEqual([409, "CRD-409-001"]);
        expect(body.detail).toContain(`The card is ${status}`);
        tried += 1;
      }
    }
    // pending: freeze, unfreeze, close; active: activate, unfreeze; suspended: activate, freeze; closed: all four
    expect(tried).toBe(11);
  });

  it("keeps another user's card out of reach (404 CRD-404-001) and needs the write scope to change one", async () => {
    const owner = await approvedUser(platform);
    const card = await issue(owner);
    const other = await approvedUser(platform);
    for (const [path, method] of [[`/${card.id}`, "GET"], [`/${card.id}`, "PATCH"], [`/${card.id}/freeze`, "POST"], [`/${card.id}/close`, "POST"], [`/${card.id}/funding`, "GET"], [`/${card.id}/funding`, "PUT"]] as const) {
      const json = method === "PATCH" ? { nickname: "mine" } : method === "PUT" ? { type: "crypto_wallet", id: String(other.wallet_id) } : undefined;
      const response = await cards(other.jwt, path, { method, ...(json && { json }) });
      expect([response.status, await code(response)], `${method} ${path}`).toEqual([404, "CRD-404-001"]);
    }
    expect((await (await cards(other.jwt)).json()).items).toEqual([]);

    const token = await (await platform.api("/v0/user/me/personal-access-tokens", { method: "POST", jwt: owner.jwt, json: { name: "ro", scopes: ["read"] } })).json();
    expect((await platform.api(`/v0/cards/${card.id}`, { pat: token.token })).status).toBe(200);
    const frozen = await platform.api(`/v0/cards/${card.id}/freeze`, { method: "POST", pat: token.token });
    expect([frozen.status, await code(frozen)]).toEqual([403, "USR-403-001"]);
    expect((await platform.api("/v0/cards")).status).toBe(401);
  });
});

describe("controls and funding", () => {
  it("updates controls as a whole: null clears, and allowed and blocked MCCs never coexist", async () => {
    const user = await approvedUser(platform);
    const card = await issue(user, { controls: { blocked_mcc: ["7995"], single_transaction_limit: "50" } });
    const both = await cards(user.jwt, `/${card.id}`, { method: "PATCH", json: { controls: { allowed_mcc: ["5411"] } } });
    expect([both.status, await code(both)]).toEqual([422, "CRD-422-001"]);
    const swapped = await (await cards(user.jwt, `/${card.id}`, { method: "PATCH", json: { controls: { allowed_mcc: ["5411", "5411", "5812"], blocked_mcc: null }, nickname: "Food" } })).json();
    expect(swapped).toMatchObject({ nickname: "Food", controls: { allowed_mcc: ["5411", "5812"], blocked_mcc: [], single_transaction_limit: "50" } });
    const cleared = await (await cards(user.jwt, `/${card.id}`, { method: "PATCH", json: { controls: { single_transaction_limit: null, monthly_limit: "1000.5" } } })).json();
    expect(cleared.controls).toMatchObject({ single_transaction_limit: null, monthly_limit: "1000.5", allowed_mcc: ["5411", "5812"] });
    expect(cleared.usage.monthly).toMatchObject({ limit: "1000.5", spent: "0", remaining: "1000.5" });
    expect((await cards(user.jwt, `/${card.id}`, { method: "PATCH", json: {} })).status).toBe(422);
  });

  it("reads and replaces the funding source with another wallet of the user's", async () => {
    const user = await approvedUser(platform);
    const card = await issue(user);
    const funding = await (await cards(user.jwt, `/${card.id}/funding`)).json();
    expect(funding).toMatchObject({ type: "crypto_wallet", id: user.wallet_id });
    expect(funding._links.balances.href).toContain(`/v0/wallets/${user.wallet_id}/assets`);
    const wallets = (await (await platform.api("/v0/wallets", { jwt: user.jwt })).json()).items as { id: number; type: string }[];
    const safe = wallets.find((wallet) => wallet.id !== user.wallet_id)!;
    const moved = await cards(user.jwt, `/${card.id}/funding`, { method: "PUT", json: { type: "crypto_wallet", id: safe.id } });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(await moved.json()).toMatchObject({ type: "crypto_wallet", id: safe.id });
    const back = await cards(user.jwt, `/${card.id}/funding`, { method: "PUT", json: { type: "crypto_wallet", id: String(user.wallet_id) } });
    expect([back.status, (await back.json()).id]).toEqual([200, user.wallet_id]);
    expect((await cards(user.jwt, `/${card.id}/funding`, { method: "PUT", json: { type: "crypto_wallet", id: safe.id } })).status).toBe(200);
    const other = await userWithWallet(platform);
    for (const id of [other.wallet_id, String(other.wallet_id)]) {
      const foreign = await cards(user.jwt, `/${card.id}/funding`, { method: "PUT", json: { type: "crypto_wallet", id } });
      expect([foreign.status, await code(foreign)]).toEqual([404, "WAL-404-001"]);
    }
    expect((await (await cards(user.jwt, `/${card.id}`)).json()).funding_source).toEqual({ type: "crypto_wallet", id: safe.id });
  });
});

describe("GraphQL", () => {
  it("User.cards, Card.funding_source.wallet across subgraphs, never a number", async () => {
    const user = await approvedUser(platform);
    const card = await issue(user);
    const response = await fetch(platform.urls.graphql, {
      method: "POST",
      headers: { "content-type": "application/json", "x-platform-jwt": user.jwt },
      body: JSON.stringify({ query: `{ me { cards { id status last_four funding_source { type wallet { id chain_id address } } transactions { pagination { total } } } } }` }),
    });
    const { data, errors } = await response.json();
    expect(errors, JSON.stringify(errors)).toBeUndefined();
    expect(data.me.cards).toEqual([{ id: card.id, status: "active", last_four: card.last_four, funding_source: { type: "crypto_wallet", wallet: { id: user.wallet_id, chain_id: expect.any(Number), address: expect.any(String) } }, transactions: { pagination: { total: 0 } } }]);
  });
});

describe("security", () => {
  it("answers 401 without a credential on every card route, and a read-only personal access token reads cards but changes none (403 USR-403-001)", async () => {
    const user = await approvedUser(platform);
    const card = await issue(user);
    const reads: RouteCall[] = [{ path: "/v0/cards" }, { path: `/v0/cards/${card.id}` }];
    const writes: RouteCall[] = [
      { method: "POST", path: "/v0/cards", json: { type: "virtual", funding_source: { type: "crypto_wallet", id: String(user.wallet_id) } } },
      { method: "PATCH", path: `/v0/cards/${card.id}`, json: { nickname: "mine" } },
      { method: "POST", path: `/v0/cards/${card.id}/activate`, json: { last_four: card.last_four } },
      ...(["freeze", "unfreeze", "close"] as const).map((action): RouteCall => ({ method: "POST", path: `/v0/cards/${card.id}/${action}` })),
    ];
    await expectEachProblem(platform, [...reads, ...writes], {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, user.jwt);
    for (const { path } of reads) expect((await platform.api(path, { pat })).status, path).toBe(200);
    await expectEachProblem(platform, writes, { pat }, { status: 403, code: "USR-403-001" });
  });

  it("lets an agent token holding read:balances read cards, not one without it (403 AGT-403-001) nor one restricted to wallets (403 AGT-403-003)", async () => {
    const user = await approvedUser(platform);
    const card = await issue(user);
    const reads: RouteCall[] = [{ path: "/v0/cards" }, { path: `/v0/cards/${card.id}` }];
    const reader = await agentToken(platform, user.jwt, ["read:balances"]);
    for (const { path } of reads) expect((await platform.api(path, { agent: reader })).status, path).toBe(200);
    await expectEachProblem(platform, reads, { agent: await agentToken(platform, user.jwt, ["read:transactions", "write:transfers", "write:strategies"]) }, { status: 403, code: "AGT-403-001" });
    await expectEachProblem(platform, reads, { agent: await agentToken(platform, user.jwt, ["read:balances"], [user.wallet_id]) }, { status: 403, code: "AGT-403-003" });
  });
});
