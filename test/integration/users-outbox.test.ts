import { beforeAll, describe, expect, it } from "vitest";
import { changeAccountStatus } from "../../subgraphs/users/kyc/account-transition.ts";
import { acknowledgeOutgoingEvents, unrelayedOutgoingEvents } from "../../lib/outgoing-events-outbox.ts";
import { userEnvironments } from "../../subgraphs/users/outbox/outgoing-events.ts";
import type { JobRow } from "../../lib/jobs/job-queue.ts";
import type { SafeDeployer } from "../../subgraphs/users/safe/safe-deployer.ts";
import { safeDeploymentHandler, SAFE_DEPLOYMENT_JOB } from "../../subgraphs/users/wallets/safe-deployment.ts";
import { useUsersSubgraph, type UsersSubgraph } from "../support/users-subgraph.ts";

// Issue 29: the users subgraph's outgoing events are an outbox, written with the change they report.
const harness = useUsersSubgraph({ subjectPrefix: "outbox" });
const { newUser } = harness;
let users: UsersSubgraph;
beforeAll(() => {
  users = harness.users;
});

const eventsOf = (userId: string, type?: string) => users.services.db.outgoingEvent.findMany({ where: { user_id: userId, ...(type && { type }) }, orderBy: { id: "asc" } });

describe("outgoing events outbox", () => {
  it("writes user.created once with the registration", async () => {
    const { user_id } = await newUser();
    const rows = await eventsOf(user_id, "user.created");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event_id: expect.stringMatching(/^evt_[0-9a-z]{26}$/), resource_type: "user", resource_id: user_id, relayed_at: null, data: { id: user_id, status: "pending" } });
  });

  it("writes no event when the change's transaction fails after the emit, and exactly one when it commits", async () => {
    const { user_id } = await newUser();
    const change = { user_id, from: "pending" as const, to: "in_progress" as const, cause: "kyc_started" as const };
    await expect(
      users.services.db.$transaction(async (tx) => {
        expect(await changeAccountStatus(tx, change)).toBe(true);
        throw new Error("the change fails after its event was written");
      }),
    ).rejects.toThrow("fails after");
    expect(await eventsOf(user_id, "user.kyc_status_changed")).toEqual([]);
    expect((await users.services.db.user.findUniqueOrThrow({ where: { id: user_id } })).status).toBe("pending");

    await users.services.db.$transaction((tx) => changeAccountStatus(tx, change));
    const rows = await eventsOf(user_id, "user.kyc_status_changed");
    expect(rows).toHaveLength(1);
    expect(rows[0]!.data).toEqual({ user_id, status: "in_progress", previous_status: "pending", changed_at: expect.any(Number) });
  });

  it("answers unrelayed events in order with the user's environment, and forgets acknowledged ones", async () => {
    const { user_id } = await newUser();
    const outbox = users.services.db.outgoingEvent;
    const pending = await unrelayedOutgoingEvents(outbox, 500);
    const mine = pending.filter((event) => event.user_id === user_id);
    expect(mine.map((event) => event.type)).toEqual(["user.created"]);
    expect(mine[0]).toMatchObject({ resource_type: "user", resource_id: user_id });
    expect(await userEnvironments(users.services.db, [user_id, "usr_unknown"])).toEqual(new Map([[user_id, "default"]]));
    const ids = pending.map((event) => BigInt(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));

    expect(await acknowledgeOutgoingEvents(outbox, [...pending.map((event) => event.id), "not-an-id"])).toBe(pending.length);
    expect((await unrelayedOutgoingEvents(outbox, 500)).some((event) => event.user_id === user_id)).toBe(false);
    // a repeated acknowledgement marks nothing again
    expect(await acknowledgeOutgoingEvents(outbox, mine.map((event) => event.id))).toBe(0);
  });

  it("writes safe.deployment_completed or safe.deployment_failed where the Safe's deployment settles, once", async () => {
    const settle = async (result: Awaited<ReturnType<SafeDeployer["deploy"]>>) => {
      const { user_id } = await newUser();
      const wallet = await users.services.db.wallet.findFirstOrThrow({ where: { user_id, type: "Safe" } });
      const job = await users.services.db.job.findFirstOrThrow({ where: { kind: SAFE_DEPLOYMENT_JOB, key: wallet.safe_creation_event_id! } });
      const handler = safeDeploymentHandler(users.services.db, { name: "fixed", deploy: async () => result });
      const row = { id: job.id, kind: job.kind, key: job.key, payload: job.payload, attempts: 0, max_attempts: 8 } satisfies JobRow;
      await handler.run(row);
      // a replayed result finds the wallet moved on and emits nothing more
      await handler.run(row);
      return { user_id, wallet_id: wallet.id, chain_id: wallet.chain_id, rows: await eventsOf(user_id) };
    };
    const address = "0x000000000000000000000000000000000000dEaD";
    const done = await settle({ status: "completed", address });
    expect(done.rows.filter((row) => row.type.startsWith("safe."))).toEqual([
      expect.objectContaining({ type: "safe.deployment_completed", resource_type: "wallet", resource_id: String(done.wallet_id), data: { wallet_id: done.wallet_id, user_id: done.user_id, chain_id: done.chain_id, address, safe_creation_status: "completed" } }),
    ]);
    const failed = await settle({ status: "failed", reason: "reverted", retryable: false });
    expect(failed.rows.filter((row) => row.type.startsWith("safe."))).toEqual([
      expect.objectContaining({ type: "safe.deployment_failed", data: { wallet_id: failed.wallet_id, user_id: failed.user_id, chain_id: failed.chain_id, safe_creation_status: "failed" } }),
    ]);
  });
});
