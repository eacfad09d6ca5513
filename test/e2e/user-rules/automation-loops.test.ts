import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentsDb } from "../../../subgraphs/agents/db.ts";
import type { FinanceDb } from "../../../subgraphs/finance/db.ts";
import { RULE_LIMITS } from "../../../lib/contracts/rules.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";
import { approvedUser, userWithWallet } from "../../support/finance.ts";

// Issue 26: nothing automation does may loop or escalate. Finding 2: two rules feeding each other
// made 38 transfers in 40 s after one deposit; now a movement carries its cause and a rule never
// fires on what its own chain made. Finding 3: an agent token without write:transfers re-enabled a
// transfer rule.
let platform: TestPlatform;
let financeDb: FinanceDb;
let agentsDb: AgentsDb;

beforeAll(async () => {
  platform = await startTestPlatform();
  financeDb = (platform.subgraphs.finance as any).services.db;
  agentsDb = (platform.subgraphs.agents as any).services.db;
});
afterAll(() => platform?.stop());

type Rule = { id: string; enabled: boolean; status: string; last_error: string | null };
type Execution = { outcome: string; detail: string | null; task_id: string | null; event: { cause?: unknown } };

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, tries = 200): Promise<T> {
  let value = await read();
  for (let i = 0; i < tries && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  if (!done(value)) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(value)}`);
  return value;
}

const deposit = (jwt: string, wallet_id: number, amount: string) => platform.api("/v0/sandbox/deposits", { method: "POST", jwt, json: { wallet_id, asset: "USDC", amount } });
const makeRule = async (jwt: string, json: Record<string, unknown>) => {
  const response = await platform.api("/v0/user/me/rules", { method: "POST", jwt, json });
  expect(response.status).toBe(201);
  return (await response.json()) as Rule;
};
const readRule = async (jwt: string, id: string) => (await (await platform.api(`/v0/user/me/rules/${id}`, { jwt })).json()) as Rule;
const executions = async (jwt: string, id: string) => (await (await platform.api(`/v0/user/me/rules/${id}/executions`, { jwt })).json()).items as Execution[];
const notifications = async (jwt: string) => (await (await platform.api("/v0/notifications", { jwt })).json()).items as { source: string; title: string; body: string }[];
const transfersInto = async (jwt: string, wallet_id: number) =>
  ((await (await platform.api(`/v0/transactions?type=transfer&wallet_id=${wallet_id}`, { jwt })).json()).items as { direction: string }[]).filter((t) => t.direction === "in").length;
const settled = () => eventually(() => financeDb.ledgerEvent.count({ where: { delivered_at: null } }), (left) => left === 0, "the ledger events to be applied");
const transfer = (from_wallet_id: number, to_wallet_id: number) => ({ action_type: "transfer", action: { from_wallet_id, to_wallet_id, asset: "USDC", amount: "1" } });

async function withSafe() {
  const user = await approvedUser(platform);
  const safe = ((await (await platform.api("/v0/wallets", { jwt: user.jwt })).json()).items as { id: number; type: string }[]).find((w) => w.type === "Safe")!;
  return { ...user, safe_id: safe.id };
}

describe("automation has causation (finding 2)", () => {
  it("stops two rules feeding each other after one transfer each: both in error with the reason, and the user told why", async () => {
    const user = await withSafe();
    const [one, two] = [user.wallet_id, user.safe_id];
    expect((await deposit(user.jwt, one, "50")).status).toBe(201);
    await settled();
    const toOne = await makeRule(user.jwt, { name: "Wallet 2 to 1", trigger_type: "transaction_received", trigger: { wallet_id: two, direction: "in" }, ...transfer(two, one) });
    const toTwo = await makeRule(user.jwt, { name: "Wallet 1 to 2", trigger_type: "transaction_received", trigger: { wallet_id: one, direction: "in" }, ...transfer(one, two) });

    expect((await deposit(user.jwt, two, "10")).status).toBe(201);
    const stopped = (rule: Rule) => rule.status === "error";
    await eventually(async () => Promise.all([readRule(user.jwt, toOne.id), readRule(user.jwt, toTwo.id)]), (rules) => rules.every(stopped), "both rules to be stopped");
    await settled();
    // what the loop could still have queued has run: nothing more moves
    await eventually(() => agentsDb.agentTask.count({ where: { user_id: user.id, status: { notIn: ["completed", "failed", "cancelled"] } } }), (open) => open === 0, "the tasks to finish");
    await settled();

    expect(await transfersInto(user.jwt, one)).toBe(1);
    expect(await transfersInto(user.jwt, two)).toBe(1);
    for (const rule of [await readRule(user.jwt, toOne.id), await readRule(user.jwt, toTwo.id)]) {
      expect(rule).toMatchObject({ enabled: false, status: "error" });
      expect(rule.last_error).toContain('rule "Wallet 2 to 1" → rule "Wallet 1 to 2" → rule "Wallet 2 to 1"');
    }
    expect((await executions(user.jwt, toOne.id)).map((e) => e.outcome)).toEqual(["stopped", "fired"]);
    expect((await executions(user.jwt, toTwo.id)).map((e) => e.outcome)).toEqual(["fired"]);
    const told = (await notifications(user.jwt)).filter((n) => n.source.startsWith("rule:"));
    expect(told.map((n) => n.title).sort()).toEqual(['Rule "Wallet 1 to 2" stopped', 'Rule "Wallet 2 to 1" stopped']);
    expect(told.every((n) => n.body.startsWith("Automation loop stopped"))).toBe(true);

    // the cause crossed the job queue and the outbox: each transfer's rows and their events say which rules made them
    const [first] = await executions(user.jwt, toOne.id).then((items) => items.filter((e) => e.outcome === "fired"));
    const rows = await financeDb.transaction.findMany({ where: { user_id: user.id, type: "transfer" }, orderBy: { created_at: "asc" } });
    expect(rows.map((row) => (row.automation_cause as { chain: string[] }).chain)).toEqual([[`rule:${toOne.id}`], [`rule:${toOne.id}`], [`rule:${toOne.id}`, `rule:${toTwo.id}`], [`rule:${toOne.id}`, `rule:${toTwo.id}`]]);
    expect(rows[0]!.automation_cause).toMatchObject({ depth: 1, root: expect.stringMatching(/^ledger:\d+$/) });
    expect((await executions(user.jwt, toTwo.id))[0]!.event.cause).toMatchObject({ chain: [`rule:${toOne.id}`], depth: 1 });
    expect(first!.event.cause).toBeNull();

    // the user enables a rule again: out of error, its error cleared
    const again = await (await platform.api(`/v0/user/me/rules/${toTwo.id}`, { method: "PATCH", jwt: user.jwt, json: { enabled: true } })).json();
    expect(again).toMatchObject({ enabled: true, status: "enabled", last_error: null });
  });

  it("skips a transfer rule's firing inside its cooldown, doing nothing", async () => {
    const user = await withSafe();
    const save = await makeRule(user.jwt, { name: "Save", trigger_type: "transaction_received", trigger: { wallet_id: user.wallet_id, direction: "in", amount_min: "50" }, ...transfer(user.wallet_id, user.safe_id) });
    for (const amount of ["100", "100"]) {
      expect((await deposit(user.jwt, user.wallet_id, amount)).status).toBe(201);
      await settled();
    }
    const fired = await executions(user.jwt, save.id);
    expect(fired.map((e) => e.outcome)).toEqual(["skipped", "fired"]);
    expect(fired[0]!.detail).toContain(`${RULE_LIMITS.cooldown_ms.transfer / 1000} s`);
    expect(await readRule(user.jwt, save.id)).toMatchObject({ status: "enabled" });
  });

  it(`caps a user at ${RULE_LIMITS.rules_per_user} rules: the next is 409 RUL-409-001`, async () => {
    const user = await userWithWallet(platform);
    const now = new Date();
    await agentsDb.userRule.createMany({
      data: Array.from({ length: RULE_LIMITS.rules_per_user - 1 }, (_, i) => ({ id: `rul_cap_${user.id}_${i}`, user_id: user.id, name: `r${i}`, trigger_type: "time_based", trigger: { cron: "0 9 * * 1" }, action_type: "notification", action: {}, created_at: now, updated_at: now })),
    });
    const notice = { name: "Last", trigger_type: "transaction_received", trigger: {}, action_type: "notification", action: {} };
    await makeRule(user.jwt, notice);
    const refused = await platform.api("/v0/user/me/rules", { method: "POST", jwt: user.jwt, json: notice });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error_code).toBe("RUL-409-001");
  });
});

describe("a transfer rule needs write:transfers to be enabled or edited (finding 3)", () => {
  it("refuses an agent token with only write:strategies enabling or renaming a transfer rule (403), lets it disable one, and lets a token with write:transfers enable it", async () => {
    const user = await withSafe();
    const tokenWith = async (scopes: string[]) => (await (await platform.api("/v0/agent/tokens", { method: "POST", jwt: user.jwt, json: { name: scopes.join(" "), scopes } })).json()).token as string;
    const patch = (token: string, id: string, json: Record<string, unknown>) =>
      fetch(`${platform.urls.platform}/v0/user/me/rules/${id}`, { method: "PATCH", headers: { "x-platform-token": token, "content-type": "application/json" }, body: JSON.stringify(json) });
    const strategiesOnly = await tokenWith(["write:strategies"]);
    const both = await tokenWith(["write:strategies", "write:transfers"]);
    const move = await makeRule(user.jwt, { name: "Move", trigger_type: "time_based", trigger: { cron: "0 9 * * 1" }, ...transfer(user.wallet_id, user.safe_id), enabled: false });
    const notice = await makeRule(user.jwt, { name: "Notice", trigger_type: "time_based", trigger: { cron: "0 9 * * 1" }, action_type: "notification", action: {}, enabled: false });

    for (const body of [{ enabled: true }, { name: "Renamed" }, { name: "Renamed", enabled: false }]) {
      const refused = await patch(strategiesOnly, move.id, body);
      expect([JSON.stringify(body), refused.status, (await refused.json()).error_code]).toEqual([JSON.stringify(body), 403, "AGT-403-001"]);
    }
    expect(await readRule(user.jwt, move.id)).toMatchObject({ name: "Move", enabled: false });
    expect((await patch(strategiesOnly, notice.id, { enabled: true })).status).toBe(200);

    const enabled = await patch(both, move.id, { enabled: true });
    expect(enabled.status).toBe(200);
    expect(await enabled.json()).toMatchObject({ enabled: true, status: "enabled" });
    const disabled = await patch(strategiesOnly, move.id, { enabled: false });
    expect(disabled.status).toBe(200);
    expect(await disabled.json()).toMatchObject({ enabled: false, status: "disabled" });
  });
});
