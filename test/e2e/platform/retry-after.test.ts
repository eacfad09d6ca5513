import { afterAll, describe, expect, it } from "vitest";
import { userWithWallet } from "../../support/finance.ts";
import { startTestPlatform } from "../../support/platform.ts";

const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

// Every 503 says when to retry (lib/http.ts), whichever route and error answered it; the test
// platform's response check also fails any 503 without it (Retry-After is required on each).
describe("Retry-After on every 503", () => {
  it("a deposit whose wallet check cannot reach the users store answers 503 with Retry-After, and so does /health on every listener", async () => {
    const platform = await startTestPlatform();
    stops.push(() => platform.stop());
    const user = await userWithWallet(platform);
    // the credential still verifies (users.users answers); the deposit's ownership check asks the users peer for the wallet
    await platform.database.exec(`ALTER TABLE "users"."wallets" RENAME TO "wallets_away"`);
    const deposit = await platform.api("/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, headers: { "idempotency-key": "retry-after-1" }, json: { wallet_id: user.wallet_id, asset: "USDC", amount: "1" } });
    expect(deposit.status).toBe(503);
    expect(await deposit.json()).toMatchObject({ error_code: "GEN-503-001" });
    expect(deposit.headers.get("retry-after")).toBe("1");

    await platform.database.exec(`ALTER SCHEMA "agents" RENAME TO "agents_away"`);
    for (const url of [platform.urls.platform, platform.urls.identity, platform.urls.rpc]) {
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(503);
      expect(health.headers.get("retry-after")).toBe("1");
    }
    await platform.database.exec(`ALTER SCHEMA "agents_away" RENAME TO "agents"`);
    await platform.database.exec(`ALTER TABLE "users"."wallets_away" RENAME TO "wallets"`);
    expect((await fetch(`${platform.urls.platform}/health`)).status).toBe(200);
  });
});
