import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { predictSafeAddress } from "../../subgraphs/users/safe/safe-address.ts";
import type { SafeDeploymentRequest, SafeDeploymentResult } from "../../subgraphs/users/safe/safe-deployer.ts";
import { SandboxSafeDeployer } from "../../subgraphs/users/safe/sandbox-safe-deployer.ts";

const OWNER: Address = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";

function request(eventId: string, change: Partial<SafeDeploymentRequest> = {}): SafeDeploymentRequest {
  return { eventId, chainId: 8453, owners: [OWNER], threshold: 1, saltNonce: 7n, ...change };
}

function completed(result: SafeDeploymentResult) {
  if (result.status !== "completed") throw new Error(`expected completed, got ${JSON.stringify(result)}`);
  return result;
}

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe("SandboxSafeDeployer", () => {
  it("answers pending until delayMs has passed since the first call, then completed at the predicted address", async () => {
    const clock = manualClock();
    const deployer = new SandboxSafeDeployer({ delayMs: 5_000, now: clock.now });

    expect(await deployer.deploy(request("evt-1"))).toEqual({ status: "pending", retryAfterMs: 5_000 });
    clock.advance(2_000);
    expect(await deployer.deploy(request("evt-1"))).toEqual({ status: "pending", retryAfterMs: 3_000 });
    clock.advance(3_000);
    const done = await deployer.deploy(request("evt-1"));

    expect(done).toEqual({
      status: "completed",
      address: predictSafeAddress(request("evt-1")),
      transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
  });

  it("is idempotent: later calls for a completed event report the same deployment", async () => {
    const clock = manualClock();
    const deployer = new SandboxSafeDeployer({ delayMs: 1_000, now: clock.now });
    await deployer.deploy(request("evt-1"));
    clock.advance(1_000);
    const first = await deployer.deploy(request("evt-1"));
    clock.advance(60_000);

    expect(await deployer.deploy(request("evt-1"))).toEqual(first);
  });

  it("times each event from its own first call and gives each its own transaction hash", async () => {
    const clock = manualClock();
    const deployer = new SandboxSafeDeployer({ delayMs: 1_000, now: clock.now });
    await deployer.deploy(request("evt-1"));
    clock.advance(600);
    await deployer.deploy(request("evt-2", { saltNonce: 8n }));
    clock.advance(400);

    const one = completed(await deployer.deploy(request("evt-1")));
    expect(await deployer.deploy(request("evt-2", { saltNonce: 8n }))).toEqual({ status: "pending", retryAfterMs: 600 });
    clock.advance(600);
    const two = completed(await deployer.deploy(request("evt-2", { saltNonce: 8n })));
    expect(two.transactionHash).not.toBe(one.transactionHash);
  });

  it("derives the transaction hash from the event id alone, so a new instance reports the same one", async () => {
    const deploy = (eventId: string) => new SandboxSafeDeployer({ delayMs: 0 }).deploy(request(eventId));
    expect(await deploy("evt-1")).toEqual(await deploy("evt-1"));
    expect(await deploy("evt-1")).not.toEqual(await deploy("evt-2"));
  });

  it("reports an address another event already deployed as completed at once, with no transaction", async () => {
    const clock = manualClock();
    const deployer = new SandboxSafeDeployer({ delayMs: 1_000, now: clock.now });
    await deployer.deploy(request("evt-1"));
    clock.advance(1_000);
    await deployer.deploy(request("evt-1"));

    expect(await deployer.deploy(request("evt-2"))).toEqual({ status: "completed", address: predictSafeAddress(request("evt-2")) });
  });

  it("fails permanently with the reason fail() gives, and only for the requests it picks", async () => {
    const seen: SafeDeploymentRequest[] = [];
    const deployer = new SandboxSafeDeployer({
      delayMs: 0,
      fail: (req) => {
        seen.push(req);
        return req.eventId === "evt-bad" ? "owner is sanctioned" : undefined;
      },
    });

    expect(await deployer.deploy(request("evt-bad"))).toEqual({ status: "failed", reason: "owner is sanctioned", retryable: false });
    expect((await deployer.deploy(request("evt-good", { saltNonce: 9n }))).status).toBe("completed");
    expect(seen.map((r) => r.eventId)).toEqual(["evt-bad", "evt-good"]);
  });

  it("fails permanently, like the chain, for a configuration Safe.setup would reject", async () => {
    const deployer = new SandboxSafeDeployer({ delayMs: 0 });
    expect(await deployer.deploy(request("evt-1", { threshold: 2 }))).toEqual({
      status: "failed",
      reason: expect.stringContaining("threshold 2"),
      retryable: false,
    });
  });
});
