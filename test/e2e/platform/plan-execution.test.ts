import executeQueryPlanModule from "@apollo/gateway/dist/executeQueryPlan.js";
import resultShaping from "@apollo/gateway/dist/resultShaping.js";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { JsonTextAnswers } from "../../../lib/json-text.ts";
import { planExecution } from "../../../gateway/plan-execution.ts";
import { apolloComputeResponse } from "../../../gateway/result-shaping.ts";
import { sandboxDeposit, userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// The gateway's faster copies of Apollo Gateway's code answer as Apollo's own, byte for byte,
// through Apollo Server and the known path: plans over several subgraphs run on the lean
// execution of a learnt plan (gateway/plan-execution.ts; once learnt, the operation no longer
// goes through Apollo's executeQueryPlan), and answers are shaped by the copy of computeResponse
// (gateway/result-shaping.ts).
const original = JsonTextAnswers.prototype.offer;
let platform: TestPlatform;
let user: Awaited<ReturnType<typeof userWithWallet>>;

beforeAll(async () => {
  platform = await startTestPlatform();
  user = await userWithWallet(platform);
  for (const amount of ["1.5", "2"]) await sandboxDeposit(platform, user.jwt, user.wallet_id, "ETH", amount);
  const [id] = (await bodies(`{ transactions { items { id } } }`, {})).map((answer) => JSON.parse(answer.slice(4)).data.transactions.items[0].id);
  const update = await fetch(platform.urls.graphql, {
    method: "POST",
    headers: { "content-type": "application/json", "x-platform-jwt": user.jwt },
    body: JSON.stringify({ query: `mutation($id: ID!, $note: String!) { update_transaction(id: $id, input: { note: $note }) { note } }`, variables: { id, note: NOTE } }),
  });
  expect((await update.json()).data.update_transaction.note).toBe(NOTE);
});
afterAll(() => platform?.stop());

const THREE_SUBGRAPHS = `{ me { id status primary_eoa_address wallets { id address chain_id safe_creation_status } pints { active_count } transactions(page: { limit: 10 }) { items { id type direction amount currency status timestamp } pagination { total } } } }`;
const SHAPED = `query Shaped($s: Boolean!) { me { __typename i: id ...U w: wallets @skip(if: $s) { id } transactions { __typename items { ... on Transaction { id amount } } } } } fragment U on User { status wallets { address } }`;
const CONDITIONAL = `query Conditional($i: Boolean!) { me { id pints @include(if: $i) { active_count } t: transactions(page: { limit: 1 }) @skip(if: $i) { pagination { total } } } }`;
// the finance fetch fails (limit 0 is refused): its error's path through _entities
const FAILING = `{ me { id pints { active_count } transactions(page: { limit: 0 }) { pagination { total } } } }`;
const INTROSPECTING = `{ __schema { queryType { name } } t: __type(name: "User") { name } me { __typename id pints { active_count } } }`;
const BAD_VARIABLE = `query Bad($i: Boolean!) { me { id pints @include(if: $i) { active_count } } }`;
// items selecting plain leaves, not in stored order, one a note with escapes: the finance fetch answers them as text
const LEAVES = `{ me { id pints { active_count } transactions { items { note timestamp id description counterparty amount_usd chain_id } } } }`;
// the client's selection is not the fetch's (a fragment; the same key again; a condition): the shaping parses the text
const FRAGMENTED = `{ me { pints { active_count } transactions { items { id ... on Transaction { amount } } } } }`;
const AGAIN = `{ me { pints { active_count } transactions { items { id amount } ... on TransactionPage { items { id } } } } }`;
const CONDITIONAL_LEAF = `query Leaf($s: Boolean!) { me { pints { active_count } transactions { items { id amount @skip(if: $s) } } } }`;
const NOTE = 'a "quoted" \\ note, é 😀 \u0001 \u2028 },{"id":"x"';

/** Apollo's calls to executeQueryPlan while `run` runs. */
async function executeQueryPlanCalls(run: () => Promise<unknown>): Promise<number> {
  const installed = executeQueryPlanModule.executeQueryPlan;
  let calls = 0;
  executeQueryPlanModule.executeQueryPlan = (...args) => {
    calls++;
    return installed(...args);
  };
  try {
    await run();
  } finally {
    executeQueryPlanModule.executeQueryPlan = installed;
  }
  return calls;
}

async function bodies(query: string, variables: Record<string, unknown>): Promise<string[]> {
  const answers = [];
  // Apollo Server's answer (learning the plan and the known query), then the known path's
  for (let run = 0; run < 3; run++) {
    const response = await fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": user.jwt }, body: JSON.stringify({ query, variables }) });
    answers.push(`${response.status} ${await response.text()}`);
  }
  return answers;
}

it.each([
  ["the three-subgraph query", THREE_SUBGRAPHS, {}, true],
  ["aliases, fragments, @skip and __typename (skipped)", SHAPED, { s: true }, true],
  ["aliases, fragments, @skip and __typename (not skipped)", SHAPED, { s: false }, true],
  ["fetches under @include and @skip (included)", CONDITIONAL, { i: true }, true],
  ["fetches under @include and @skip (skipped)", CONDITIONAL, { i: false }, true],
  ["a failing entity fetch beside one that answers", FAILING, {}, true],
  ["introspection beside entity fetches", INTROSPECTING, {}, true],
  // refused by the variables' check before any plan runs, in both
  ["a variable of the wrong type", BAD_VARIABLE, { i: "yes" }, false],
  ["items as text: plain leaves out of stored order, a note with escapes", LEAVES, {}, true],
  ["items as text: a fragment in the client's selection", FRAGMENTED, {}, true],
  ["items as text: the same key selected again", AGAIN, {}, true],
  ["items as text: a leaf under @skip (skipped)", CONDITIONAL_LEAF, { s: true }, true],
  ["items as text: a leaf under @skip (not skipped)", CONDITIONAL_LEAF, { s: false }, true],
])("%s: the same bytes as Apollo Gateway's executor gives", async (_name, query, variables, executesPlan) => {
  await bodies(query, variables);
  let ours: string[] = [];
  expect(await executeQueryPlanCalls(async () => (ours = await bodies(query, variables)))).toBe(0);
  planExecution.lean = false;
  let apollo: string[] = [];
  try {
    expect((await executeQueryPlanCalls(async () => (apollo = await bodies(query, variables)))) > 0).toBe(executesPlan);
  } finally {
    planExecution.lean = true;
  }
  expect(ours).toEqual(apollo);
});

it.each([
  ["the three-subgraph query", THREE_SUBGRAPHS, {}],
  ["items as text: plain leaves out of stored order", LEAVES, {}],
  ["items as text: the same key selected again", AGAIN, {}],
  ["aliases, fragments, @skip and __typename (skipped)", SHAPED, { s: true }],
  ["aliases, fragments, @skip and __typename (not skipped)", SHAPED, { s: false }],
])("%s: the same bytes as Apollo's shaping gives", async (_name, query, variables) => {
  const ours = await bodies(query, variables);
  const installed = resultShaping.computeResponse;
  resultShaping.computeResponse = apolloComputeResponse;
  try {
    expect(await bodies(query, variables)).toEqual(ours);
  } finally {
    resultShaping.computeResponse = installed;
  }
  for (const answer of ours) expect(answer.startsWith("200 ")).toBe(true);
  expect(JSON.parse(ours[0]!.slice(4)).errors).toBeUndefined();
});

it("answers the three-subgraph query's data, and the failing fetch's error at its path", async () => {
  const [three] = await bodies(THREE_SUBGRAPHS, {});
  const { data, errors } = JSON.parse(three!.slice(4));
  expect(errors).toBeUndefined();
  expect(data.me.id).toBe(user.id);
  expect(data.me.wallets.map((wallet: { id: number }) => wallet.id)).toContain(user.wallet_id);
  expect(data.me.transactions.items).toHaveLength(2);
  expect(data.me.transactions.pagination).toEqual({ total: 2 });
  expect(data.me).toHaveProperty("pints");
  const [failing] = await bodies(FAILING, {});
  const answer = JSON.parse(failing!.slice(4));
  expect(answer.errors).toEqual([expect.objectContaining({ path: ["me", "transactions"], extensions: expect.objectContaining({ serviceName: "finance" }) })]);
  // User.transactions and Query.me are non-null: the null reaches the root, as Apollo's shaping makes it
  expect(answer.data).toBeNull();
});

it("answers the entity fetch's items as JSON text on the known path, with the keys the client selected", async () => {
  const offers: { path: readonly (string | number)[]; keys: readonly string[] | undefined; taken: boolean }[] = [];
  const offer = vi.spyOn(JsonTextAnswers.prototype, "offer").mockImplementation(function (this: JsonTextAnswers, path, text, keys) {
    const taken = original.call(this, path, text, keys);
    offers.push({ path, keys, taken });
    return taken;
  });
  let answers: string[];
  try {
    // a text not sent before: Apollo Server answers it first
    answers = await bodies(`${LEAVES} `, {});
  } finally {
    offer.mockRestore();
  }
  // Apollo Server's run (no JSON text) then the known path's two, each offering the items at the fetch's own path
  expect(offers.filter((made) => made.taken)).toEqual([
    { path: ["_entities", 0, "transactions", "items"], keys: ["note", "timestamp", "id", "description", "counterparty", "amount_usd", "chain_id"], taken: true },
    { path: ["_entities", 0, "transactions", "items"], keys: ["note", "timestamp", "id", "description", "counterparty", "amount_usd", "chain_id"], taken: true },
  ]);
  const items = JSON.parse(answers[2]!.slice(4)).data.me.transactions.items;
  expect(items).toHaveLength(2);
  expect(items.map((item: { note: string | null }) => item.note)).toContain(NOTE);
  expect(Object.keys(items[0])).toEqual(["note", "timestamp", "id", "description", "counterparty", "amount_usd", "chain_id"]);
});
