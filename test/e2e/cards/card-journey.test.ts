import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLuhnValid } from "../../../subgraphs/finance/cards/sandbox-card-issuer.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { ensureAsset, userWithWallet } from "../../support/finance.ts";

// Issue 10, "done when": a new user, through REST alone, from sandbox KYC to a closed card.

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
  await ensureAsset((platform.subgraphs.finance as any).services.db, "USDC", 6);
});
afterAll(() => platform?.stop());

describe("a card from start to end, through REST alone", () => {
  it("KYC, a funded virtual card with controls, declines and an approval in the feed and budget, freeze, reveal, close", async () => {
    const user = await userWithWallet(platform);
    const call = async (method: string, path: string, json?: unknown, expected = 200) => {
      const response = await platform.api(path, { method, jwt: user.jwt, ...(json !== undefined && { json }) });
      expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBe(expected);
      return response.status === 204 ? undefined : response.json();
    };

    // sandbox KYC
    await call("POST", "/v0/kyc/access-token");
    await call("POST", "/v0/kyc/submissions", undefined, 202);
    expect((await call("POST", "/v0/kyc/sandbox/decision", { answer: "GREEN" })).status).toBe("approved");

    // a virtual card funded by the wallet, after a sandbox deposit
    await call("POST", "/v0/sandbox/deposits", { wallet_id: user.wallet_id, asset: "USDC", amount: "200" }, 201);
    const card = await call("POST", "/v0/cards", { type: "virtual", funding_source: { type: "crypto_wallet", id: String(user.wallet_id) } }, 201);
    expect(card.status).toBe("active");
    await call("PATCH", `/v0/cards/${card.id}`, { controls: { daily_limit: "100", blocked_mcc: ["7995"] } });
    await call("POST", "/v0/budgets", { category: "groceries", amount: "300", period: "monthly" }, 201);

    // declined for each reason that applies to this card, then approved and captured
    const authorize = (body: Record<string, unknown>) =>
      call("POST", `/v0/sandbox/cards/${card.id}/authorizations`, { amount: "10", currency: "USD", merchant: { name: "Corner Grocer", mcc: "5411" }, ...body }, 201);
    expect((await authorize({ merchant: { name: "Casino", mcc: "7995" } })).decline_reason).toBe("mcc_blocked");
    expect((await authorize({ amount: "100.01" })).decline_reason).toBe("daily_limit_exceeded");
    expect((await authorize({ currency: "EUR" })).decline_reason).toBe("currency_mismatch");
    await call("PATCH", `/v0/cards/${card.id}`, { controls: { daily_limit: null } });
    expect((await authorize({ amount: "200.01" })).decline_reason).toBe("insufficient_funds");
    const purchase = await authorize({ amount: "42.50" });
    expect(purchase).toMatchObject({ decision: "approved", status: "pending" });
    await call("POST", `/v0/sandbox/card-authorizations/${purchase.id}/capture`);

    const feed = await call("GET", `/v0/transactions?card_id=${card.id}&meta=true`);
    expect(feed.items).toMatchObject([{ type: "card_purchase", status: "completed", direction: "out", amount: "42.5", category: "groceries", card_id: card.id, merchant: { name: "Corner Grocer", mcc: "5411" } }]);
    expect(feed.meta.categories).toEqual([{ category: "groceries", total_amount: "42.5", percentage_of_total: 100 }]);
    const [budget] = (await call("GET", "/v0/budgets")).items;
    expect(budget).toMatchObject({ category: "groceries", spent: "42.5", remaining: "257.5" });
    expect((await call("GET", `/v0/cards/${card.id}`)).usage.daily.spent).toBe("42.5");

    // frozen: declined as inactive; unfrozen: approved again
    await call("POST", `/v0/cards/${card.id}/freeze`);
    expect((await authorize({})).decline_reason).toBe("card_inactive");
    await call("POST", `/v0/cards/${card.id}/unfreeze`);
    expect((await authorize({})).decision).toBe("approved");

    // the number, with the extra proof only
    const challenge = await call("POST", `/v0/cards/${card.id}/secure-details/challenge`, undefined, 201);
    const signature = await user.account.signMessage({ message: challenge.message });
    const details = await call("POST", `/v0/cards/${card.id}/secure-details`, { challenge_id: challenge.id, signature });
    expect(isLuhnValid(details.number) && details.number.endsWith(card.last_four)).toBe(true);
    expect((await call("GET", `/v0/cards/${card.id}/secure-details/reveals`)).items).toHaveLength(1);

    // closed for good
    expect((await call("POST", `/v0/cards/${card.id}/close`)).status).toBe("closed");
    expect((await authorize({})).decline_reason).toBe("card_inactive");
    await call("POST", `/v0/cards/${card.id}/unfreeze`, undefined, 409);
  });
});
