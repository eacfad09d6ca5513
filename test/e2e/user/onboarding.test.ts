import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileSolidity, DEVNET_CHAIN_ID, startDevnet, type Devnet } from "../../support/devnet.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { newAccount } from "../../support/registration.ts";
import { expectEachProblem, readOnlyPat, statusAndCode, type RouteCall } from "../../support/route-cases.ts";

// KYC and onboarding through the REST adapter (phone verification: phone.test.ts) (the domain rules have their
// own integration tests; these check the documented HTTP contract).
let platform: TestPlatform;
let devnet: Devnet;
// the platform's deployment of this owner's Safe fails, so the user may bring their own (byo) on the in-process chain
const byoOwner = newAccount();
/** What the platform reads of a Safe (VERSION, getOwners, getThreshold), and nothing else. */
const SAFE_SHAPED = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract SafeShaped {
  string public VERSION;
  address[] private owners;
  constructor(string memory version, address[] memory _owners) { VERSION = version; owners = _owners; }
  function getOwners() external view returns (address[] memory) { return owners; }
  function getThreshold() external pure returns (uint256) { return 1; }
}`;
beforeAll(async () => {
  devnet = await startDevnet();
  platform = await startTestPlatform({ CHAIN_RPC_URLS: JSON.stringify({ [DEVNET_CHAIN_ID]: devnet.url }), SAFE_SANDBOX_FAILURES: byoOwner.address });
});
afterAll(async () => {
  await platform?.stop();
  await devnet?.stop();
});

async function waitForStep(jwt: string, status: string) {
  for (let i = 0; i < 100; i++) {
    const body = await (await platform.api("/v0/user/me/onboarding/safe", { jwt })).json();
    if (body.step_status === status) return body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`onboarding never reached ${status}`);
}

describe("KYC", () => {
  it("access token → submission moves pending → in_progress once; rejected is terminal", async () => {
    const { jwt, id } = await platform.createUser();
    const status = await platform.api("/v0/kyc/status", { jwt });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ status: "pending", applicant_id: null, can_submit: true, _links: { self: { href: expect.stringContaining("/v0/kyc/status") } } });

    const early = await platform.api("/v0/kyc/submissions", { method: "POST", jwt });
    expect(early.status).toBe(409);
    expect((await early.json()).error_code).toBe("KYC-409-002");

    const token = await platform.api("/v0/kyc/access-token", { method: "POST", jwt });
    expect(token.status).toBe(200);
    const tokenBody = await token.json();
    expect(tokenBody).toMatchObject({ token: expect.any(String), applicant_id: expect.any(String), provider: "sandbox" });
    expect(tokenBody.expires_at).toBeGreaterThan(Date.now());

    const submitted = await platform.api("/v0/kyc/submissions", { method: "POST", jwt });
    expect(submitted.status).toBe(202);
    expect(await submitted.json()).toMatchObject({ status: "in_progress", can_submit: false });
    const again = await platform.api("/v0/kyc/submissions", { method: "POST", jwt });
    expect(again.status).toBe(409);
    expect((await again.json()).error_code).toBe("KYC-409-001");

    const me = await (await platform.api("/v0/user/me?expand=status_history", { jwt })).json();
    expect(me.status).toBe("in_progress");
    expect(me.status_history.map((c: { from: string | null; to: string; cause: string }) => `${c.from}->${c.to}:${c.cause}`)).toEqual([
      "null->pending:registration",
      "pending->in_progress:kyc_started",
    ]);
    expect(id).toBe(me.id);
  });
});

describe("onboarding", () => {
  it("GET /v0/user/me/onboarding/safe follows the agent_create2 deployment to completed", async () => {
    const { jwt } = await platform.createUser();
    const first = await platform.api("/v0/user/me/onboarding/safe", { jwt });
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body.mode).toBe("agent_create2");
    expect(body.config.mode).toBe(body.mode);
    expect(body._links.self.href).toMatch(/\/v0\/user\/me\/onboarding\/safe$/);
    expect(["processing", "completed"]).toContain(body.step_status);
    const done = await waitForStep(jwt, "completed");
    expect(done).toMatchObject({ required: false, chain_id: 8453, wallet: { type: "Safe", safe_creation_status: "completed" } });
    expect(done.config.safe_address).toBe(done.wallet.address);

    const conflict = await platform.api("/v0/user/me/onboarding/safe", { method: "POST", jwt, json: { mode: "byo", safe_address: done.wallet.address } });
    expect(conflict.status).toBe(409);
    expect((await conflict.json()).error_code).toBe("ONB-409-001");
    const invalid = await platform.api("/v0/user/me/onboarding/safe", { method: "POST", jwt, json: { mode: "magic" } });
    expect(invalid.status).toBe(422);
  });

  it("POST /v0/user/me/onboarding/steps skips the phone step, refuses to skip kyc, and completes kyc", async () => {
    const { jwt } = await platform.createUser();
    const skipped = await platform.api("/v0/user/me/onboarding/steps", { method: "POST", jwt, json: { name: "phone", action: "skip" } });
    expect(skipped.status).toBe(200);
    const checklist = await skipped.json();
    expect(checklist.steps.map((s: { name: string }) => s.name)).toEqual(["safe", "phone", "kyc"]);
    expect(checklist.steps.find((s: { name: string }) => s.name === "phone")).toMatchObject({ step_status: "skipped", required: false });

    const refused = await platform.api("/v0/user/me/onboarding/steps", { method: "POST", jwt, json: { name: "kyc", action: "skip" } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error_code).toBe("ONB-400-003");

    await platform.api("/v0/kyc/access-token", { method: "POST", jwt });
    const kyc = await platform.api("/v0/user/me/onboarding/steps", { method: "POST", jwt, json: { name: "kyc", action: "complete" } });
    expect(kyc.status).toBe(200);
    expect((await kyc.json()).steps.find((s: { name: string }) => s.name === "kyc").step_status).toBe("processing");
    expect((await (await platform.api("/v0/kyc/status", { jwt })).json()).status).toBe("in_progress");
  });
});

describe("onboarding: errors and security", () => {
  it("answers 400 ONB-400-001 to a field that does not belong to the mode", async () => {
    const { jwt, address } = await platform.createUser();
    expect(await statusAndCode(await platform.api("/v0/user/me/onboarding/safe", { method: "POST", jwt, json: { mode: "agent_create2", safe_address: address } }))).toEqual({ status: 400, code: "ONB-400-001" });
    expect(await statusAndCode(await platform.api("/v0/user/me/onboarding/safe", { method: "POST", jwt, json: { mode: "byo", transaction_hash: `0x${"ab".repeat(32)}` } }))).toEqual({ status: 400, code: "ONB-400-001" });
  });

  it("answers 400 ONB-400-002 to a byo address holding no Safe, a Safe of an unaccepted version, or one the user's EOA does not own, and adopts none", async () => {
    const { jwt } = await platform.createUser({ account: byoOwner, chain_id: DEVNET_CHAIN_ID });
    expect((await waitForStep(jwt, "failed")).wallet).toMatchObject({ safe_creation_status: "failed" });
    const safeShaped = compileSolidity(SAFE_SHAPED, "safe-shaped.sol").SafeShaped!;
    const cases: [string, RegExp][] = [
      [newAccount().address, /No Safe was found/],
      [await devnet.deploy(safeShaped, ["1.1.1", [byoOwner.address]]), /version 1\.1\.1/],
      [await devnet.deploy(safeShaped, ["1.3.0", [newAccount().address]]), /not an owner/],
    ];
    for (const [safe_address, detail] of cases) {
      const refused = await platform.api("/v0/user/me/onboarding/safe", { method: "POST", jwt, json: { mode: "byo", safe_address } });
      const problem = await refused.json();
      expect({ status: refused.status, code: problem.error_code }, problem.detail).toEqual({ status: 400, code: "ONB-400-002" });
      expect(problem.detail).toMatch(detail);
    }
    expect(await (await platform.api("/v0/user/me/onboarding/safe", { jwt })).json()).toMatchObject({ step_status: "failed", wallet: { safe_creation_status: "failed" } });
  });

  it("answers 401 without a credential; a read-only personal access token reads the Safe step but submits nothing (403 USR-403-001)", async () => {
    const { jwt } = await platform.createUser();
    const writes: RouteCall[] = [
      { method: "POST", path: "/v0/user/me/onboarding/safe", json: { mode: "byo" } },
      { method: "POST", path: "/v0/user/me/onboarding/steps", json: { name: "phone", action: "skip" } },
    ];
    await expectEachProblem(platform, [{ path: "/v0/user/me/onboarding/safe" }, ...writes], {}, { status: 401, code: "USR-401-001" });
    const pat = await readOnlyPat(platform, jwt);
    expect((await platform.api("/v0/user/me/onboarding/safe", { pat })).status).toBe(200);
    await expectEachProblem(platform, writes, { pat }, { status: 403, code: "USR-403-001" });
  });
});
