import { execute, getOperationAST, print, type DocumentNode, type ExecutionResult, type GraphQLSchema } from "graphql";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CompiledOperations } from "../../../lib/graphql/compiled-operation.ts";
import { TRANSACTION_FIELDS } from "../../../rest-adapter/resources/resources.generated.ts";
import { userWithWallet } from "../../support/finance.ts";
import { startTestPlatform, type TestPlatform } from "../../support/platform.ts";

// Operations that repeat run compiled by graphql-jit (lib/graphql/compiled-operation.ts), in the
// single-fetch shortcut and in the gateway's in-process subgraph fetches. Every query the platform
// runs here is run a second time on graphql-js with the same schema, variables and context: the
// two answers (JSON, and what each error wraps, which our error masking reads) must be the same.
interface Run {
  operation: string;
  compiled: boolean;
  answer: ReturnType<typeof shown>;
  interpreted: ReturnType<typeof shown>;
}
const runs: Run[] = [];

function shown(result: ExecutionResult) {
  return { json: JSON.stringify(result), causes: result.errors?.map((error) => [error.originalError?.constructor.name, error.originalError?.message]) };
}

type Internals = { schema: GraphQLSchema; seen: WeakMap<DocumentNode, Map<string | null, object>>; compiled: Map<object, unknown> };
const execution = CompiledOperations.prototype.execute;
vi.spyOn(CompiledOperations.prototype, "execute").mockImplementation(async function (this: CompiledOperations, document, operationName, variableValues, contextValue) {
  const answer = await execution.call(this, document, operationName, variableValues, contextValue);
  if (getOperationAST(document, operationName)?.operation === "query") {
    const { schema, seen, compiled } = this as unknown as Internals;
    const interpreted = await execute({ schema, document, operationName, variableValues, contextValue });
    const entry = seen.get(document)?.get(operationName ?? null);
    runs.push({ operation: print(document), compiled: entry !== undefined && compiled.has(entry), answer: shown(answer), interpreted: shown(interpreted) });
  }
  return answer;
});

let platform: TestPlatform;
let user: Awaited<ReturnType<typeof userWithWallet>>;

beforeAll(async () => {
  platform = await startTestPlatform();
  user = await userWithWallet(platform);
  for (const amount of ["1.5", "0.25"]) {
    const deposit = await platform.api("/v0/sandbox/deposits", { method: "POST", jwt: user.jwt, json: { wallet_id: user.wallet_id, asset: "ETH", amount } });
    expect(deposit.status).toBe(201);
  }
});
afterAll(() => platform?.stop());

/**
 * Four runs of one request (the last compiled): the same status and body each time (but for a
 * problem's own trace id), and each query answered as graphql-js answers it. `afterFirst`: the
 * first run, planned by the gateway, answers otherwise (see its test).
 */
async function fourTimes(send: () => Promise<Response>, { afterFirst = false } = {}) {
  const from = runs.length;
  const answers = [];
  for (let run = 0; run < 4; run++) {
    const response = await send();
    answers.push({ status: response.status, body: (await response.text()).replace(/"trace_id":"\w+"/, '"trace_id":"…"') });
  }
  const same = afterFirst ? answers.slice(1) : answers;
  for (const answer of same.slice(1)) expect(answer).toEqual(same[0]);
  const ran = runs.slice(from);
  for (const run of ran) expect(run.answer, run.operation).toEqual(run.interpreted);
  return { status: answers[0]!.status, body: JSON.parse(answers[0]!.body), ran };
}

const rest = (path: string) => () => platform.api(path, { jwt: user.jwt });
const graphql = (query: string, variables?: Record<string, unknown>) => () =>
  fetch(platform.urls.graphql, { method: "POST", headers: { "content-type": "application/json", "x-platform-jwt": user.jwt }, body: JSON.stringify({ query, variables }) });

describe("compiled execution answers as graphql-js does", () => {
  it("the REST adapter's user, wallets and feed, compiled from the third run", async () => {
    for (const path of ["/v0/user/me", "/v0/wallets", "/v0/transactions?meta=true&limit=50", "/v0/transactions?limit=1&offset=1&type=deposit&timestamps=iso"]) {
      const { status, ran } = await fourTimes(rest(path));
      expect(status, path).toBe(200);
      expect(ran.at(-1)!.compiled, path).toBe(true);
    }
  });

  it("a query over three subgraphs: each of the gateway's fetches compiled", async () => {
    const { body, ran } = await fourTimes(
      graphql(`{ me { id status primary_eoa_address wallets { id address chain_id safe_creation_status } pints { active_count } transactions(page: { limit: 10 }) { items { id type direction amount currency status timestamp } pagination { total } } } }`),
    );
    expect(body.data.me.transactions.pagination.total).toBe(2);
    expect(new Set(ran.map((run) => run.operation)).size).toBeGreaterThan(1);
    expect(ran.slice(-2).every((run) => run.compiled)).toBe(true);
  });

  it("@include/@skip and fragments through variables, and the fields resolvers look for in `info`", async () => {
    const query = `query Feed($meta: Boolean!, $noItems: Boolean!) { transactions(page: { limit: 5 }) { ...Page meta @include(if: $meta) { transaction_count } } }
      fragment Page on TransactionPage { items @skip(if: $noItems) { ${TRANSACTION_FIELDS} } pagination { total } }`;
    for (const variables of [{ meta: true, noItems: false }, { meta: false, noItems: true }]) {
      const { body, ran } = await fourTimes(graphql(query, variables));
      expect(Boolean(body.data.transactions.meta)).toBe(variables.meta);
      expect(ran.at(-1)!.compiled).toBe(true);
    }
  });

  it("a catalogue error, on REST and GraphQL, with serviceName and code", async () => {
    const missing = await fourTimes(rest("/v0/transactions/txn_missing"));
    expect(missing.status).toBe(404);
    const { body, ran } = await fourTimes(graphql('{ transaction(id: "txn_missing") { id } }'));
    expect(body.errors[0].extensions).toMatchObject({ error_code: "TXN-404-001", serviceName: "finance" });
    expect(ran.at(-1)!.compiled).toBe(true);
  });

  it("variables the API refuses, and variables refused by a custom scalar", async () => {
    const refused = await fourTimes(graphql("query ($page: PageInput) { transactions(page: $page) { items { id } } }", { page: { limit: "many" } }));
    expect(refused.body.errors[0].message).toMatch(/\$page/);
    // the gateway's first run (before the shortcut knows the operation) checks the variables with
    // the subgraphs' scalars too: 400 and the scalar's message on every run
    const notATime = await fourTimes(graphql("query ($filter: TransactionFilter) { transactions(filter: $filter) { items { id } } }", { filter: { period_start: "yesterday-ish" } }));
    expect(notATime.status).toBe(400);
    expect(notATime.body.errors[0].extensions.code).toBe("BAD_USER_INPUT");
    expect(notATime.body.errors[0].message).toMatch(/^Variable "\$filter" got invalid value "yesterday-ish" at "filter.period_start"; Expected type "Timestamp". Timestamp expects/);
    const aTime = await fourTimes(graphql("query ($filter: TransactionFilter) { transactions(filter: $filter) { pagination { total } } }", { filter: { period_start: "2020-01-01T00:00:00Z" } }));
    expect(aTime.body.data.transactions.pagination.total).toBe(2);
    expect(aTime.ran.at(-1)!.compiled).toBe(true);
  });
});
