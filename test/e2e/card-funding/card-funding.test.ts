import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma, type FinanceDb } from "../../../subgraphs/finance/db.ts";
import { availableAfter } from "../../../subgraphs/finance/transactions/balances.ts";
import { approvedUser, linkSandboxBank } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { newAccount } from "../../support/registration.ts";
import { agentToken, expectEachProblem, readOnlyPat, type RouteCall } from "../../support/route-cases.ts";

// Bank accounts as card funding: a card funded by one is authorized against the bank's reported
// balance less the outflows the bank has not posted yet, and books its purchases against the bank
// account (GET /v0/accounts listing them is in accounts/account-view.test.ts).

let platform: TestPlatform;
let db: FinanceDb;

beforeAll(async () => {
  platform = await startTestPlatform();
  db = (platform.subgraphs.finance as any).services.db;
});
afterAll(() => platform?.stop());

const GROCERY = { name: "Corner Grocery", mcc: "5411" };

async function problem(response: Response) {
  const body = await response.json();
  return { status: response.status, code: body.error_code as string, loc: Array.isArray(body.detail) ? body.detail[0].loc : undefined };
}

const link = (jwt: string, institution_id?: string) => linkSandboxBank(platform, jwt, institution_id);

const issue = (jwt: string, bankAccountId: string, extra: Record<string, unknown> = {}) =>
  platform.api("/v0/cards", { method: "POST", jwt, json: { type: "virtual", funding_source: { type: "bank_account", id: bankAccountId }, ...extra } });

const authorize = async (jwt: string, cardId: string, amount: string) => {
  const response = await platform.api(`/v0/sandbox/cards/${cardId}/authorizations`, { method: "POST", jwt, json: { amount, currency: "USD", merchant: GROCERY } });
  expect(response.status).toBe(201);
  return response.json();
};

describe("a card funded by a bank account", () => {
  it("refuses another user's or an unlinked bank account (404 BNK-404-001) and one in another currency (422 at the id)", async () => {
    const owner = await approvedUser(platform);
    const stranger = await approvedUser(platform);
    const [checking, savings] = await link(owner.jwt);
    const [giro] = await link(owner.jwt, "ins_sandbox_euro");
    expect(await problem(await issue(stranger.jwt, checking!.id))).toMatchObject({ status: 404, code: "BNK-404-001" });
    expect(await problem(await issue(owner.jwt, giro!.id))).toEqual({ status: 422, code: "GEN-422-001", loc: ["body", "funding_source", "id"] });
    expect((await issue(owner.jwt, giro!.id, { currency: "EUR" })).status).toBe(201);

    const card = await (await issue(owner.jwt, checking!.id)).json();
    expect(card.funding_source).toEqual({ type: "bank_account", id: checking!.id });
    expect(card._links.funding_bank_account.href).toContain(`/v0/bank-accounts/${checking!.id}`);
    const fund = (jwt: string, id: string) => platform.api(`/v0/cards/${card.id}/funding`, { method: "PUT", jwt, json: { type: "bank_account", id } });
    expect(await problem(await fund(owner.jwt, giro!.id))).toEqual({ status: 422, code: "GEN-422-001", loc: ["body", "id"] });
    const moved = await fund(owner.jwt, savings!.id);
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ type: "bank_account", id: savings!.id, _links: { bank_account: { href: expect.stringContaining(savings!.id) } } });

    // unlinking the login's last account revokes it: neither account funds a card any more
    for (const account of [checking!, savings!]) expect((await platform.api(`/v0/bank-accounts/${account.id}`, { method: "DELETE", jwt: owner.jwt })).status).toBe(200);
    expect(await problem(await fund(owner.jwt, checking!.id))).toMatchObject({ status: 404, code: "BNK-404-001" });
    expect(await problem(await issue(owner.jwt, savings!.id))).toMatchObject({ status: 404, code: "BNK-404-001" });
    // the card still points at the unlinked account: its authorizations decline
    expect(await authorize(owner.jwt, card.id, "1")).toMatchObject({ decision: "declined", decline_reason: "insufficient_funds", transaction: null });
  });

  it("authorizes against the bank's balance less the pending outflows, booking card_purchase against the bank account in its currency", async () => {
    const user = await approvedUser(platform);
    const [checking] = await link(user.jwt);
    const created = await issue(user.jwt, checking!.id);
    expect(created.status).toBe(201);
    const card = await created.json();
    const source = { kind: "bank_account", id: checking!.id } as const;
    const usd = { asset_symbol: null, currency: "USD" };

    // 1250.00 reported; 1000 fits, and no sum of the account's ledger rows stands in its way
    const first = await authorize(user.jwt, card.id, "1000");
    expect(first).toMatchObject({ decision: "approved", status: "pending" });
    const feed = await (await platform.api(`/v0/transactions?card_id=${card.id}`, { jwt: user.jwt })).json();
    expect(feed.items).toEqual([
      expect.objectContaining({ id: first.transaction.id, type: "card_purchase", status: "pending", direction: "out", amount: "1000", asset: null, currency: "USD", amount_usd: "1000", wallet_id: null, card_id: card.id, bank_account_id: checking!.id }),
    ]);

    // what is left is the reported balance less every pending outflow booked against the account
    const pending = await db.transaction.findMany({ where: { bank_account_id: checking!.id, direction: "out", status: { in: ["pending", "processing"] } } });
    const booked = pending.reduce((sum, row) => sum.plus(row.amount), new Prisma.Decimal(0));
    expect(await availableAfter(db, source, usd, "0")).toBe(new Prisma.Decimal("1250").minus(booked).toFixed());

    // 250.01 is more than the 250 at most left: declined, nothing booked
    const over = await authorize(user.jwt, card.id, "250.01");
    expect(over).toMatchObject({ decision: "declined", decline_reason: "insufficient_funds", transaction: null });
    expect(await db.transaction.count({ where: { card_id: card.id } })).toBe(1);

    // the merchant lets the first go: its purchase fails and the balance is free again
    expect((await platform.api(`/v0/sandbox/card-authorizations/${first.id}/reverse`, { method: "POST", jwt: user.jwt })).status).toBe(200);
    expect(await authorize(user.jwt, card.id, "1200")).toMatchObject({ decision: "approved", transaction: { bank_account_id: checking!.id, currency: "USD", asset: null } });
  });
});

describe("a card's funding source: errors and security", () => {
  it("reads a bank-funded card's source, keeps another user's card out of reach (404 CRD-404-001) and a closed card's source fixed (409 CRD-409-001)", async () => {
    const owner = await approvedUser(platform);
    const [checking, savings] = await link(owner.jwt);
    const card = await (await issue(owner.jwt, checking!.id)).json();
    const read = await platform.api(`/v0/cards/${card.id}/funding`, { jwt: owner.jwt });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ type: "bank_account", id: checking!.id, _links: { bank_account: { href: expect.stringContaining(checking!.id) } } });
    const stranger = await approvedUser(platform);
    const [theirs] = await link(stranger.jwt);
    await expectEachProblem(platform, [{ path: `/v0/cards/${card.id}/funding` }, { method: "PUT", path: `/v0/cards/${card.id}/funding`, json: { type: "bank_account", id: theirs!.id } }], { jwt: stranger.jwt }, { status: 404, code: "CRD-404-001" });
    expect((await platform.api(`/v0/cards/${card.id}/close`, { method: "POST", jwt: owner.jwt })).status).toBe(200);
    expect(await problem(await platform.api(`/v0/cards/${card.id}/funding`, { method: "PUT", jwt: owner.jwt, json: { type: "bank_account", id: savings!.id } }))).toMatchObject({ status: 409, code: "CRD-409-001" });
  });

  it("refuses a wallet whose address is not proven yet (403 WAL-403-001), keeping the source", async () => {
    // registered with the documented body alone, as a spec client does: the EOA is recorded unproven
    const jwt = await platform.issuer.sign({ sub: `unproven-${Math.random().toString(36).slice(2)}` });
    expect((await platform.api("/v0/user/", { method: "POST", jwt, json: { primary_eoa_address: newAccount().address, chain_id: 8453 } })).status).toBe(201);
    for (const [path, json] of [["/v0/kyc/access-token", undefined], ["/v0/kyc/submissions", undefined], ["/v0/kyc/sandbox/decision", { answer: "GREEN" }]] as const)
      expect((await platform.api(path, { method: "POST", jwt, ...(json && { json }) })).ok, path).toBe(true);
    const eoa = (await (await platform.api("/v0/user/me?expand=wallets", { jwt })).json()).wallets.find((w: { type: string }) => w.type === "EOA");
    expect(eoa.address_verified).toBe(false);
    const [checking] = await link(jwt);
    const card = await (await issue(jwt, checking!.id)).json();
    const refused = await problem(await platform.api(`/v0/cards/${card.id}/funding`, { method: "PUT", jwt, json: { type: "crypto_wallet", id: eoa.id } }));
    expect(refused).toMatchObject({ status: 403, code: "WAL-403-001" });
    expect(await (await platform.api(`/v0/cards/${card.id}/funding`, { jwt })).json()).toMatchObject({ type: "bank_account", id: checking!.id });
  });

  it("answers 401 without a credential; a read-only personal access token and an agent token holding read:balances read the source, the PAT changes nothing (403 USR-403-001), other agent tokens read nothing (403 AGT-403-001, AGT-403-003)", async () => {
    const user = await approvedUser(platform);
    const [checking, savings] = await link(user.jwt);
    const card = await (await issue(user.jwt, checking!.id)).json();
    const read: RouteCall = { path: `/v0/cards/${card.id}/funding` };
    const write: RouteCall = { method: "PUT", path: `/v0/cards/${card.id}/funding`, json: { type: "bank_account", id: savings!.id } };
    await expectEachProblem(platform, [read, write], {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, user.jwt);
    expect((await platform.api(read.path, { pat })).status).toBe(200);
    await expectEachProblem(platform, [write], { pat }, { status: 403, code: "USR-403-001" });
    expect((await platform.api(read.path, { agent: await agentToken(platform, user.jwt, ["read:balances"]) })).status).toBe(200);
    await expectEachProblem(platform, [read], { agent: await agentToken(platform, user.jwt, ["read:transactions", "write:transfers", "write:strategies"]) }, { status: 403, code: "AGT-403-001" });
    await expectEachProblem(platform, [read], { agent: await agentToken(platform, user.jwt, ["read:balances"], [user.wallet_id]) }, { status: 403, code: "AGT-403-003" });
  });
});
