import { decodeJwt } from "jose";
import { getAddress, hashMessage, type Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userRegistrationMessage } from "../../../subgraphs/users/user/register-user.ts";
import { DEVNET_CHAIN_ID, startDevnet, type Devnet } from "../../support/devnet.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { newAccount } from "../../support/registration.ts";
import { deploySafeLikeAccount, signAsSafeOwner } from "../../support/safe-account.ts";

// POST /v0/user/ with a contract account as primary_eoa_address: control proven by ERC-1271 on
// the in-process chain (issue 7, item 6), the same check POST /v0/wallets uses for a Safe.
let devnet: Devnet;
let platform: TestPlatform;
beforeAll(async () => {
  devnet = await startDevnet();
  platform = await startTestPlatform({ CHAIN_RPC_URLS: JSON.stringify({ [DEVNET_CHAIN_ID]: devnet.url }) });
}, 120_000);
afterAll(async () => {
  await platform?.stop();
  await devnet?.stop();
});

async function body(jwt: string, account: Address, sign: (hash: `0x${string}`) => Promise<`0x${string}`>) {
  const { iss, sub } = decodeJwt(jwt);
  const issued_at = Date.now();
  const message = userRegistrationMessage({ environment_id: "default", issuer: iss!, subject: sub!, address: account, chain_id: DEVNET_CHAIN_ID, issued_at });
  return { primary_eoa_address: account, chain_id: DEVNET_CHAIN_ID, issued_at, signature: await sign(hashMessage(message)) };
}

describe("POST /v0/user/ with a contract account", () => {
  it("accepts an owner's ERC-1271 signature and refuses a stranger's", async () => {
    const owner = newAccount();
    const stranger = newAccount();
    const safe = getAddress(await deploySafeLikeAccount(devnet, [owner.address]));

    const jwt = await platform.issuer.sign();
    const refused = await platform.api("/v0/user/", { method: "POST", jwt, json: await body(jwt, safe, (hash) => signAsSafeOwner(stranger, safe, DEVNET_CHAIN_ID, hash)) });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error_code).toBe("USR-403-002");

    const created = await platform.api("/v0/user/", { method: "POST", jwt, json: await body(jwt, safe, (hash) => signAsSafeOwner(owner, safe, DEVNET_CHAIN_ID, hash)) });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ primary_eoa_address: safe, primary_chain_id: DEVNET_CHAIN_ID });
  });
});
