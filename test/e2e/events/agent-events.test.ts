import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { finishedTask } from "../../support/agent-tasks.ts";
import { ORG, startBootstrappedIdentity } from "../../support/identity.ts";
import type { TestPlatform } from "../../support/platform.ts";
import { registrationBody } from "../../support/registration.ts";

// The agents subgraph's outgoing events (issue 29) reach an organisation's events list through
// the identity service's relay, which learns the user's environment from the users subgraph:
// an agent task finishing (agent_task.finished) and a user rule firing (user_rule.fired).
let platform: TestPlatform;
let owner: string;
let orgid: string;

beforeAll(async () => {
  ({ platform, owner } = await startBootstrappedIdentity());
  const provider = { name: "provider_a", issuer: platform.issuer.issuer, jwks_uri: platform.issuer.jwksUri };
  const created = await platform.identity(`/v0/organisation/${ORG}/environments`, { method: "POST", bearer: owner, json: { name: "Agent events", auth_providers: [provider] } });
  expect(created.status).toBe(201);
  orgid = `${ORG}:${(await created.json()).id}`;
});
afterAll(() => platform?.stop());

type Event = { id: string; type: string; environment_id: string; resource: { type: string; id: string }; data: Record<string, unknown> };

async function events(type: string): Promise<Event[]> {
  const response = await platform.identity(`/v0/organisation/${ORG}/events?type=${type}&limit=200`, { bearer: owner });
  expect(response.status).toBe(200);
  return (await response.json()).items;
}

/** Polls the list until `found` picks what the test waits for (the relay runs every second). */
async function waitFor<T>(type: string, found: (items: Event[]) => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const hit = found(await events(type));
    if (hit !== undefined) return hit;
    if (Date.now() > deadline) throw new Error(`no matching ${type} event within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A user of the organisation environment with their EOA wallet. */
async function environmentUser(sub: string) {
  const jwt = await platform.issuer.sign({ sub });
  const headers = { "x-platform-orgid": orgid };
  const registered = await platform.api("/v0/user/", { method: "POST", jwt, headers, json: await registrationBody(jwt, { environment_id: orgid }) });
  expect(registered.status, await registered.clone().text()).toBe(201);
  const wallets = (await (await platform.api("/v0/wallets", { jwt, headers })).json()).items as { id: number; type: string }[];
  return { id: (await registered.json()).id as string, as: { jwt, headers }, wallet_id: wallets.find((wallet) => wallet.type === "EOA")!.id };
}

describe("agent events", () => {
  it("stores agent_task.finished once when an environment user's agent task completes", async () => {
    const user = await environmentUser("agent-events-task");
    const enabled = await platform.api("/v0/user/me/strategies", { method: "POST", ...user.as, json: { strategy_id: "stg_low_balance_alert", parameters: { wallet_id: user.wallet_id, asset: "USDC", threshold: "1" } } });
    expect(enabled.status).toBe(201);
    const user_strategy_id = (await enabled.json()).id;
    const created = await platform.api("/v0/agent-tasks", { method: "POST", ...user.as, json: { kind: "strategy_run", input: { user_strategy_id } } });
    expect(created.status).toBe(201);
    const task = await finishedTask(platform, user.as.jwt, (await created.json()).id, user.as.headers);
    expect(task.status).toBe("completed");

    const event = await waitFor("agent_task.finished", (items) => items.find((item) => item.resource.id === task.id));
    expect(event).toMatchObject({ environment_id: orgid, resource: { type: "agent_task", id: task.id } });
    expect(event.data).toEqual({
      id: task.id,
      user_id: user.id,
      kind: "strategy_run",
      status: "completed",
      error: null,
      user_strategy_id,
      attempts: 1,
      scheduled_at: task.scheduled_at,
      finished_at: task.finished_at,
    });
    // once: the relay's later passes add nothing
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await events("agent_task.finished")).filter((item) => item.resource.id === task.id)).toHaveLength(1);
  });

  it("stores user_rule.fired once when an environment user's rule fires on a deposit", async () => {
    const user = await environmentUser("agent-events-rule");
    const made = await platform.api("/v0/user/me/rules", {
      method: "POST",
      ...user.as,
      json: { name: "Big deposits", trigger_type: "transaction_received", trigger: { direction: "in", amount_min: "500" }, action_type: "notification", action: { title: "Big deposit" } },
    });
    expect(made.status).toBe(201);
    const rule = await made.json();
    expect((await platform.api("/v0/sandbox/deposits", { method: "POST", ...user.as, json: { wallet_id: user.wallet_id, asset: "USDC", amount: "750" } })).status).toBe(201);

    const event = await waitFor("user_rule.fired", (items) => items.find((item) => item.resource.id === rule.id));
    const [execution] = (await (await platform.api(`/v0/user/me/rules/${rule.id}/executions`, user.as)).json()).items;
    expect(event).toMatchObject({ environment_id: orgid, resource: { type: "user_rule", id: rule.id } });
    expect(event.data).toEqual({
      id: execution.id,
      rule_id: rule.id,
      user_id: user.id,
      action_type: "notification",
      outcome: "fired",
      detail: null,
      task_id: null,
      event_key: execution.event_key,
      created_at: execution.created_at,
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await events("user_rule.fired")).filter((item) => item.resource.id === rule.id)).toHaveLength(1);
  });
});
